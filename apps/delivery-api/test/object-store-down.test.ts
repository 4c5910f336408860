import { startFaultProxy, type FaultProxy } from '@cp/http-runtime/testing';
import { createObjectStore } from '@cp/storage';
import { DEFAULT_LOAD_TIMEOUT_MS } from '../src/config.js';
import { get, type RawResponse } from './support/http-client.js';
import { aUser, publish, upload } from './support/seed.js';
import { openTestStack, startInstance, type Instance, type TestStack } from './support/test-stack.js';

/*
 * The object store fails under a running instance: its S3 server (the embedded one,
 * over HTTP) sits behind a TCP fault proxy that refuses connections, then hangs them
 * (accepted, nothing crosses), then forwards again. The database stays up. The
 * instance runs with the production defaults for the load timeout and the S3 client.
 */

let stack: TestStack;
let proxy: FaultProxy;
let delivery: Instance;
const ids: { cached: string; uncached: string[] } = { cached: '', uncached: [] };

beforeAll(async () => {
  stack = await openTestStack();
  const { port } = new URL(stack.s3.config.endpoint);
  proxy = await startFaultProxy({ host: '127.0.0.1', port: Number(port) });
  // As resources.ts builds it: the S3 client gives up no later than the load does.
  const objects = createObjectStore({
    ...stack.s3.config,
    endpoint: `http://127.0.0.1:${proxy.port}`,
    requestTimeoutMs: DEFAULT_LOAD_TIMEOUT_MS,
  });
  // Fresh for 1 s, then served through stale-if-error while the store fails.
  delivery = await startInstance(stack, { objects, config: { loadTimeoutMs: DEFAULT_LOAD_TIMEOUT_MS, cache: { ttlSeconds: 1 } } });
  const { actor } = await aUser(stack.domain);
  for (let i = 0; i < 3; i += 1) {
    const { componentId } = await upload(stack.domain, actor);
    await publish(stack.domain, actor, componentId, 'prod');
    if (i === 0) ids.cached = componentId;
    else ids.uncached.push(componentId);
  }
});

afterAll(async () => {
  await delivery?.close();
  await proxy?.close();
  await stack?.close();
});

const consume = (id: string) => `/consume?id=${id}&env=prod`;

const timed = async (path: string): Promise<{ response: RawResponse; ms: number }> => {
  const started = performance.now();
  const response = await get(delivery.url, path);
  return { response, ms: performance.now() - started };
};

const expectUnavailable = (response: RawResponse) => {
  expect(response.status).toBe(503);
  expect(response.header('retry-after')).toBe('5');
  expect(response.header('content-type')).toMatch(/^application\/problem\+json/);
  expect(response.header('cache-control')).toBe('no-store');
  expect(response.json()).toMatchObject({ status: 503, code: 'UNAVAILABLE' });
  expect(response.json().detail).toMatch(/Retry in 5 seconds/);
  // The store's address stays in the log.
  expect(response.body.toString()).not.toContain(String(proxy.port));
};

it('refused: the cached variant stays 200 (fresh, then stale-if-error), an uncached one answers 503 at once', async () => {
  const warm = await get(delivery.url, consume(ids.cached));
  expect(warm.status).toBe(200);

  await proxy.refuse();

  const fresh = await get(delivery.url, consume(ids.cached));
  expect(fresh.status).toBe(200);
  expect(fresh.body.equals(warm.body)).toBe(true);

  const missing = await timed(consume(ids.uncached[0]!));
  expectUnavailable(missing.response);
  expect(missing.ms).toBeLessThan(500);

  await new Promise((resolve) => setTimeout(resolve, 1100));
  const stale = await get(delivery.url, consume(ids.cached));
  expect(stale.status).toBe(200);
  expect(stale.header('etag')).toBe(warm.header('etag'));
});

it('hung: the cached variant stays 200, an uncached one answers 503 within the load timeout', async () => {
  await proxy.restore();
  proxy.hang();

  const missing = await timed(consume(ids.uncached[1]!));
  expectUnavailable(missing.response);
  expect(missing.ms).toBeLessThan(DEFAULT_LOAD_TIMEOUT_MS + 500);

  const stale = await timed(consume(ids.cached));
  expect(stale.response.status).toBe(200);
  expect(stale.ms).toBeLessThan(DEFAULT_LOAD_TIMEOUT_MS + 500);
});

it('restored: every variant is served again, without a restart', async () => {
  await proxy.restore();
  const deadline = Date.now() + 5000;
  for (const id of ids.uncached) {
    for (;;) {
      const response = await get(delivery.url, consume(id));
      if (response.status === 200) break;
      if (Date.now() > deadline) throw new Error(`still ${response.status} after the object store came back`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
});
