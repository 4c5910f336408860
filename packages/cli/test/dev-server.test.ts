import { mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConsumeResponse } from '@cp/consume';
import { DevServerError, startDevServer, type DevServer } from '../src/dev/index.js';

/*
 * The dev server over real HTTP, without a browser: what it serves and refuses. The dev page's
 * part (running a candidate) is played by posting its verdict, as the page does.
 */

const HTML = '<!doctype html><html><body><p id="v">one</p></body></html>';

let dir: string;
let file: string;
let server: DevServer;
const lines: string[] = [];
const log = { info: (line: string) => lines.push(line), error: (line: string) => lines.push(line) };

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'cpc-dev-'));
  file = join(dir, 'index.html');
  await writeFile(file, HTML);
  await writeFile(join(dir, 'secret.txt'), 'not for the page');
  server = await startDevServer({ file, port: 0, log });
});
afterEach(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

/** A request with the path sent exactly as written (fetch would resolve `..` first). */
function raw(path: string, headers: Record<string, string> = {}, method = 'GET', body?: string) {
  const { hostname, port } = new URL(server.url);
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((done, fail) => {
    const req = request({ host: hostname, port, path, method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => done({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

const componentId = async (): Promise<string> => /"componentId":"([0-9a-f-]{36})"/.exec((await raw('/')).body)![1]!;

interface Status {
  readonly candidate: { readonly revision: number } | null;
  readonly good: { readonly name: string } | null;
  readonly problems: readonly { readonly kind: string; readonly message: string }[];
}

/** The first status the page's stream sends that `wanted` accepts (the first one at all by default). */
async function statusOf(wanted: (status: Status) => boolean = () => true): Promise<Status> {
  const controller = new AbortController();
  const response = await fetch(new URL('/dev/status', server.url), { signal: controller.signal });
  const reader = response.body!.getReader();
  let text = '';
  for (;;) {
    const events = [...text.matchAll(/event: status\ndata: (.*)\n\n/g)].map((match) => JSON.parse(match[1]!) as Status);
    const found = events.find(wanted);
    if (found) {
      controller.abort();
      return found;
    }
    text += new TextDecoder().decode((await reader.read()).value);
  }
}

const verdict = (body: unknown, origin = new URL(server.url).origin) =>
  raw('/dev/verdict', { 'Content-Type': 'application/json', Origin: origin }, 'POST', JSON.stringify(body));

it.each([
  '/../secret.txt',
  '/..%2fsecret.txt',
  '/%2e%2e/%2e%2e/etc/passwd',
  '/host/../../secret.txt',
  '/index.html',
  '/secret.txt',
  '//etc/passwd',
  '/dev/../consume',
  '/host/frame/v1.0000000000000000.html',
])('answers 404 to %s: only its own routes are served', async (path) => {
  const answer = await raw(path);
  expect(answer.status).toBe(404);
  expect(JSON.parse(answer.body)).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
  expect(answer.body).not.toContain('not for the page');
});

it('answers only the names of 127.0.0.1 (a rebound DNS name gets 403)', async () => {
  const answer = await raw('/consume', { Host: `evil.example:${new URL(server.url).port}` });
  expect(answer.status).toBe(403);
});

it('serves the page, the SDK and its frame document', async () => {
  const page = await raw('/');
  expect(page.status).toBe(200);
  expect(page.headers['content-security-policy']).toContain("script-src 'self'");
  const framePath = /"framePath":"([^"]+)"/.exec(page.body)![1]!;
  expect(framePath).toMatch(/^\/host\/frame\/v1\.[0-9a-f]{16}\.html$/);
  const frame = await raw(framePath);
  expect(frame.status).toBe(200);
  expect(frame.headers['content-security-policy']).toMatch(/^sandbox allow-scripts/);
  const sdk = await raw('/host/v1.js');
  expect(sdk.status).toBe(200);
  expect(sdk.headers['content-type']).toBe('text/javascript; charset=utf-8');
});

it('serves /consume as the delivery API would once the page ran the file, with ETag and 304', async () => {
  const id = await componentId();
  const before = await raw(`/consume?id=${id}&preview=true`);
  expect(before.status).toBe(404);
  expect(JSON.parse(before.body)).toMatchObject({ code: 'NOT_FOUND', resource: 'Release' });

  const { candidate } = await statusOf();
  expect((await verdict({ revision: candidate!.revision, problems: [] })).status).toBe(204);
  const answer = await raw(`/consume?id=${id.toUpperCase()}&preview=true`);
  expect(answer.status).toBe(200);
  const body = ConsumeResponse.parse(JSON.parse(answer.body));
  expect(body.item.id).toBe(id);
  expect(body.item.consume_variant[0]).toMatchObject({ name: 'v1', loader: { type: 'HTMLLoader', HTML } });
  expect(answer.headers['access-control-allow-origin']).toBeUndefined();
  const again = await raw(`/consume?id=${id}&preview=true`, { 'If-None-Match': String(answer.headers.etag) });
  expect(again.status).toBe(304);
  expect((await statusOf()).good).toMatchObject({ name: 'v1' });
});

it('says so when the file is gone, and keeps serving the last good version', async () => {
  const id = await componentId();
  await verdict({ revision: (await statusOf()).candidate!.revision, problems: [] });
  await unlink(file);
  const status = await statusOf((next) => next.problems.length > 0);
  expect(status.problems).toEqual([{ kind: 'missing', message: `${file} is gone (deleted or renamed). Save it again.` }]);
  expect(status.good).toMatchObject({ name: 'v1' });
  expect((await raw(`/consume?id=${id}`)).status).toBe(200);
  expect(lines).toContain(`  - ${file} is gone (deleted or renamed). Save it again.`);
});

it.each([
  ['?preview=true', 400, 'INVALID_INPUT'],
  ['?id=ID&evn=prod', 400, 'INVALID_INPUT'],
  ['?id=ID&id=ID', 400, 'INVALID_INPUT'],
  ['?id=ID&preview=false', 400, 'INVALID_INPUT'],
  ['?id=3f1c2a9e-8d4b-4c6f-9a71-2b5e0d7c4e11', 404, 'NOT_FOUND'],
])('refuses /consume%s with %i %s', async (query, status, code) => {
  const answer = await raw(`/consume${query.replace(/ID/g, await componentId())}`);
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/problem+json');
  expect(JSON.parse(answer.body)).toMatchObject({ code });
});

it('announces a promoted version on /changes', async () => {
  const id = await componentId();
  const controller = new AbortController();
  const response = await fetch(new URL(`/changes?ids=${id}`, server.url), { signal: controller.signal });
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const reader = response.body!.getReader();
  const { candidate } = await statusOf();
  await verdict({ revision: candidate!.revision, problems: [] });
  let text = '';
  while (!text.includes('event: change')) text += new TextDecoder().decode((await reader.read()).value);
  controller.abort();
  expect(text).toContain(`data: {"id":"${id}"}`);
});

it.each([
  ['another origin', { revision: 1, problems: [] }, 'http://evil.example', 403],
  ['a problem kind only the file checks find', { revision: 1, problems: [{ kind: 'too-large', message: 'x' }] }, null, 400],
  ['an unknown field', { revision: 1, problems: [], good: true }, null, 400],
])('refuses a verdict from %s', async (_what, body, origin, status) => {
  expect((await verdict(body, origin ?? undefined)).status).toBe(status);
  expect((await statusOf()).good).toBeNull();
});

it('refuses a verdict that is not JSON', async () => {
  const answer = await raw('/dev/verdict', { 'Content-Type': 'text/plain', Origin: new URL(server.url).origin }, 'POST', '{}');
  expect(answer.status).toBe(415);
});

it('answers 405 with Allow to a method a route does not take', async () => {
  const answer = await raw('/consume', {}, 'DELETE');
  expect(answer.status).toBe(405);
  expect(answer.headers.allow).toBe('GET, HEAD');
});

it('refuses to start on a port in use, saying which', async () => {
  const taken: Server = createServer();
  await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
  const { port } = taken.address() as { port: number };
  try {
    const failure = await startDevServer({ file, port, log }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DevServerError);
    expect(failure).toMatchObject({ code: 'PORT_IN_USE', message: `Port ${port} on 127.0.0.1 is in use: stop what listens there, or choose another port (--port).` });
  } finally {
    taken.close();
  }
});

it('opens the page when asked, through the browser opener it is given', async () => {
  const opened: string[] = [];
  const other = await startDevServer({ file, port: 0, log, open: true, openUrl: (url) => opened.push(url) });
  try {
    expect(opened).toEqual([other.url]);
    expect(other.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  } finally {
    await other.close();
  }
});

it('refuses a file that does not exist, and any address but 127.0.0.1', async () => {
  await expect(startDevServer({ file: join(dir, 'missing.html'), port: 0, log })).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
  await expect(startDevServer({ file, port: 0, log, host: '0.0.0.0' as '127.0.0.1' })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
});
