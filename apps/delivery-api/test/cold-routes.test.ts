import { readFileSync } from 'node:fs';
import { get, send } from './support/http-client.js';
import { openTestStack, startInstance, type Instance, type TestStack } from './support/test-stack.js';

/*
 * The routes beside /consume and /flow answer on node:http as they answered
 * through Express (headers, HEAD, matching), without Express in the process.
 */

let stack: TestStack;
let delivery: Instance;

beforeAll(async () => {
  stack = await openTestStack();
  delivery = await startInstance(stack);
});

afterAll(async () => {
  await delivery?.close();
  await stack?.close();
});

const headerNames = (raw: Record<string, unknown>) => Object.keys(raw).filter((name) => !['date', 'connection', 'keep-alive'].includes(name));

test('GET /: the headers Express sent, in its order, and no X-Powered-By or ETag', async () => {
  const res = await get(delivery.url, '/');
  expect(headerNames(res.headers)).toEqual(['access-control-allow-origin', 'access-control-expose-headers', 'cache-control', 'content-type', 'content-length']);
  expect(res.header('content-type')).toBe('application/json; charset=utf-8');
  expect(res.header('cache-control')).toBe('no-store');
  expect(Number(res.header('content-length'))).toBe(res.body.length);
});

test('HEAD: the same headers, no body', async () => {
  const full = await get(delivery.url, '/openapi.json');
  const head = await send(delivery.url, '/openapi.json', { method: 'HEAD' });
  expect(head.status).toBe(200);
  expect(head.header('content-length')).toBe(String(full.body.length));
  expect(head.body.length).toBe(0);
});

test('paths match case-insensitively, with one trailing slash, and ignore the query', async () => {
  expect((await get(delivery.url, '/OpenAPI.json/')).status).toBe(200);
  expect((await get(delivery.url, '/docs?x=1')).header('content-type')).toBe('text/html; charset=utf-8');
  expect((await get(delivery.url, '/docs//')).status).toBe(404);
});

test('OPTIONS on a public route: the CORS preflight', async () => {
  const res = await send(delivery.url, '/docs', { method: 'OPTIONS', headers: { origin: 'https://host.example', 'access-control-request-method': 'GET' } });
  expect(res.status).toBe(204);
  expect(res.header('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
});

test('operators’ routes: GET only, no CORS; any other method is an unknown route', async () => {
  const ready = await get(delivery.url, '/ready');
  expect(ready.status).toBe(200);
  expect(ready.header('access-control-allow-origin')).toBeUndefined();
  const posted = await send(delivery.url, '/metrics', { method: 'POST' });
  expect(posted.status).toBe(404);
  expect(posted.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
});

test('the app does not depend on Express (its per-request prototype swaps slow the hot path down)', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as Record<string, Record<string, string> | undefined>;
  expect(Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })).not.toContain('express');
});
