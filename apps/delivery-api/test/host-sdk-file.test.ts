import { readFileSync } from 'node:fs';
import { brotliDecompressSync } from 'node:zlib';
import { get } from './support/http-client.js';
import { readHostFrameFile, readHostSdkFile } from '../src/host-sdk/host-sdk-file.js';
import { openTestStack, startInstance, type Instance, type TestStack } from './support/test-stack.js';

/* The built SDK file, served by the delivery API at a stable alias and an immutable hashed URL. */

let stack: TestStack;
let delivery: Instance;
const sdk = readHostSdkFile();

beforeAll(async () => {
  stack = await openTestStack();
  delivery = await startInstance(stack);
});

afterAll(async () => {
  await delivery?.close();
  await stack?.close();
});

it('serves the stable alias briefly cached and the hashed URL as immutable, both cross-origin', async () => {
  const stable = await get(delivery.url, '/host/v1.js');
  expect(stable.status).toBe(200);
  expect(stable.headers['content-type']).toBe('text/javascript; charset=utf-8');
  expect(stable.headers['cache-control']).toBe('public, max-age=300');
  expect(stable.headers['access-control-allow-origin']).toBe('*');
  expect(stable.body).toEqual(sdk.code);

  const hashed = await get(delivery.url, `/host/v1.${sdk.hash}.js`);
  expect(hashed.status).toBe(200);
  expect(hashed.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(hashed.body).toEqual(sdk.code);
  expect(hashed.headers.etag).toBe(stable.headers.etag);
});

it('sends brotli when accepted and 304 for a matching ETag', async () => {
  const br = await get(delivery.url, '/host/v1.js', { 'Accept-Encoding': 'br' });
  expect(br.headers['content-encoding']).toBe('br');
  expect(brotliDecompressSync(br.body)).toEqual(sdk.code);
  const again = await get(delivery.url, '/host/v1.js', { 'Accept-Encoding': 'br', 'If-None-Match': String(br.headers.etag) });
  expect(again.status).toBe(304);
});

it('answers 404 for a hash that is not the served file, and 405 for writes', async () => {
  expect((await get(delivery.url, '/host/v1.0000000000000000.js')).status).toBe(404);
  const post = await fetch(`${delivery.url}/host/v1.js`, { method: 'POST' });
  expect(post.status).toBe(405);
});

it('serves the frame document as immutable HTML under its own CSP, the header docs/static-export.md tells a CDN to add', async () => {
  const frame = readHostFrameFile();
  const served = await get(delivery.url, `/host/frame/v1.${frame.hash}.html`);
  expect(served.status).toBe(200);
  expect(served.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(served.headers['x-content-type-options']).toBe('nosniff');
  expect(served.body).toEqual(frame.code);
  const csp = String(served.headers['content-security-policy']);
  expect(csp).toMatch(/^sandbox allow-scripts /);
  expect(csp).not.toContain('allow-same-origin');
  expect(readFileSync(new URL('../../../docs/static-export.md', import.meta.url), 'utf8')).toContain(`Content-Security-Policy: ${csp}\n`);
});
