import { Ajv2020 } from 'ajv/dist/2020.js';
import { readFileSync } from 'node:fs';
import { WEBHOOK_EVENT_TYPES } from '@cp/domain';
import { get, send } from './support/http-client.js';
import { openTestStack, startInstance, type Instance, type TestStack } from './support/test-stack.js';

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

describe('GET /', () => {
  it('health in the shape of the other services', async () => {
    const res = await get(delivery.url, '/');
    expect(res.status).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', version: expect.stringMatching(/^\d+\.\d+\.\d+/), server: 'delivery-api' });
  });
});

describe('the OpenAPI document', () => {
  it('is OpenAPI 3.1, generated from the request schemas, with every loader field described', async () => {
    const res = await get(delivery.url, '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.header('access-control-allow-origin')).toBe('*');
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.security).toEqual([]);
    expect(doc.info.description).toMatch(/No credential/);

    const consume = doc.paths['/consume'].get;
    const parameters = consume.parameters as { name: string; required?: boolean; schema: { enum?: string[] } }[];
    const params = Object.fromEntries(parameters.map((p) => [p.name, p]));
    expect(Object.keys(params)).toEqual(['id', 'env', 'preview', 'arm', 'rev', 'key', 'attr.<name>', 'Cp-Preview-Key', 'Cp-Key', 'Cp-Attributes']);
    expect(consume.responses['200'].headers['Cp-Arm']).toBeDefined();
    expect(doc.components.schemas.ConsumeResponse.properties.assignment).toBeDefined();
    expect(params['Cp-Preview-Key']).toMatchObject({ in: 'header' });
    expect(params['Cp-Preview-Key']!.required).toBeFalsy();
    expect(params.id).toMatchObject({ in: 'query', required: true });
    expect(params.preview!.schema.enum).toEqual(['true', 'false']);
    expect(Object.keys(consume.responses)).toEqual(['200', '304', '400', '404', '405', '503']);
    expect(consume.responses['404'].content['application/problem+json'].schema.$ref).toBe('#/components/schemas/ProblemDetails');

    const changes = doc.paths['/changes'].get;
    expect((changes.parameters as { name: string }[]).map((p) => p.name)).toEqual(['ids', 'lastEventId', 'Last-Event-ID']);
    expect(Object.keys(changes.responses)).toEqual(['200', '400', '405', '429', '503']);
    expect(Object.keys(changes.responses['200'].content)).toEqual(['text/event-stream']);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/host/v1.js', '/host/v1.{hash}.js', '/host/frame/v1.{hash}.html', '/examples/host']));

    const loader = doc.components.schemas.HtmlLoader;
    expect(Object.keys(loader.properties)).toEqual(['type', 'HTML', 'shadowRootMode', 'autoHeight', 'integrity', 'styles', 'scripts']);
    for (const [name, field] of Object.entries<{ description?: string }>(loader.properties)) {
      if (name !== 'styles' && name !== 'scripts') expect(field.description).toBeTruthy();
    }

    const flow = doc.paths['/flow'].get;
    expect(flow.deprecated).toBe(true);
    expect(Object.keys(flow.responses['200'].headers)).toEqual(['Deprecation', 'Sunset', 'Link']);
    expect(flow.description).toMatch(/prod/);
  });

  it('documents the webhook payloads under OpenAPI 3.1 `webhooks`, as schemas that accept a real body and refuse a wrong one', async () => {
    const doc = (await get(delivery.url, '/openapi.json')).json();
    expect(Object.keys(doc.webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    const release = doc.webhooks['release.published'].post;
    expect((release.parameters as { name: string; in: string }[]).map((p) => `${p.in} ${p.name}`)).toEqual(['header webhook-id', 'header webhook-timestamp', 'header webhook-signature']);
    expect(release.requestBody.content['application/json'].schema.$ref).toBe('#/components/schemas/ReleasePublishedEvent');
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema({ $id: 'openapi', components: doc.components });
    const validate = ajv.compile({ $ref: 'openapi#/components/schemas/ReleasePublishedEvent' });
    const id = () => crypto.randomUUID();
    const body = {
      type: 'release.published',
      timestamp: '2026-11-24T22:41:07.512Z',
      data: {
        organization: { id: id(), name: 'Acme' },
        component: { id: id(), name: 'Checkout' },
        environment: { id: id(), name: 'prod' },
        variant: { id: id(), sequence: 3 },
        previousVariant: { id: id(), sequence: 4 },
        rollback: true,
        releaseRequestId: null,
        releaseId: id(),
        actor: { id: id(), email: 'ada@example.com', via: null },
      },
    };
    expect([validate(body), validate.errors]).toEqual([true, null]);
    expect(validate({ ...body, data: { ...body.data, rollback: 'yes' } })).toBe(false);
    expect(validate({ ...body, type: 'variant.created' })).toBe(false);
  });

  it('is rendered for people at /docs, with no script', async () => {
    const res = await get(delivery.url, '/docs');
    expect(res.status).toBe(200);
    expect(res.header('content-type')).toMatch(/^text\/html/);
    const html = res.body.toString('utf8');
    for (const text of ['GET</span> /consume', 'deprecated', 'shadowRootMode', 'autoHeight', 'integrity', 'LoaderScript', 'Retry-After']) {
      expect(html).toContain(text);
    }
    expect(html).not.toContain('<script');
    expect(res.header('content-security-policy')).toMatch(/default-src 'none'/);
  });
});

describe('everything else', () => {
  it('an unknown path: 404 problem details pointing at /consume', async () => {
    const res = await get(delivery.url, '/components/abc');
    expect(res.status).toBe(404);
    expect(res.header('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.json()).toMatchObject({ status: 404, code: 'ROUTE_NOT_FOUND' });
    expect(res.json().detail).toMatch(/\/consume\?id=/);
  });

  it('a trailing slash or other case is another path', async () => {
    expect((await get(delivery.url, '/consume/?id=x')).status).toBe(404);
    expect((await get(delivery.url, '/Consume?id=x')).json().code).toBe('ROUTE_NOT_FOUND');
  });

  it('POST / and DELETE /openapi.json: 405 with Allow', async () => {
    for (const [method, path] of [['POST', '/'], ['DELETE', '/openapi.json']] as const) {
      const res = await send(delivery.url, path, { method });
      expect(res.status).toBe(405);
      expect(res.header('allow')).toBe('GET, HEAD, OPTIONS');
    }
  });

  it('a malformed percent-encoding in the path: a problem, never 500', async () => {
    const res = await get(delivery.url, '/%E0%A4%A');
    expect(res.status).toBe(404);
    expect(res.header('content-type')).toMatch(/^application\/problem\+json/);
  });
});

/*
 * The routes beside /consume and /flow answer on node:http as they answered
 * through Express (headers, HEAD, matching), without Express in the process.
 */
describe('the routes beside /consume and /flow, on node:http', () => {
  const headerNames = (raw: Record<string, unknown>) => Object.keys(raw).filter((name) => !['date', 'connection', 'keep-alive'].includes(name));

  test('GET /: the headers Express sent, in its order (and Timing-Allow-Origin), and no X-Powered-By or ETag', async () => {
    const res = await get(delivery.url, '/');
    expect(headerNames(res.headers)).toEqual(['access-control-allow-origin', 'access-control-expose-headers', 'timing-allow-origin', 'cache-control', 'content-type', 'content-length']);
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
});
