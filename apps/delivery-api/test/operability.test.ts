import type { Repositories } from '@cp/domain';
import { get } from './support/http-client.js';
import { aUser, publish, upload } from './support/seed.js';
import { openTestStack, startInstance, type Instance, type TestStack } from './support/test-stack.js';

/* GET /ready and GET /metrics (docs/operations.md). */

let stack: TestStack;
let delivery: Instance;
let componentId: string;

beforeAll(async () => {
  stack = await openTestStack();
  delivery = await startInstance(stack);
  const { actor } = await aUser(stack.domain);
  componentId = (await upload(stack.domain, actor)).componentId;
  await publish(stack.domain, actor, componentId, 'prod');
});
afterAll(async () => {
  await delivery?.close();
  await stack?.close();
});

const sample = (text: string, series: string): number => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? Number.NaN : Number(line.slice(series.length + 1));
};

test('/ready: 200 with the database and the object store checked', async () => {
  const res = await get(delivery.url, '/ready');
  expect(res.status).toBe(200);
  expect(res.json()).toEqual({
    status: 'ready',
    checks: { database: { ok: true, ms: expect.any(Number) }, objectStore: { ok: true, ms: expect.any(Number) } },
  });
});

test('/ready: 503 naming the database when it fails', async () => {
  const failing: Repositories = new Proxy(stack.repos, {
    get: (target, name, receiver): unknown =>
      name === 'components'
        ? { ...target.components, findById: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432')) }
        : Reflect.get(target, name, receiver),
  });
  const broken = await startInstance(stack, { repos: failing });
  try {
    const res = await get(broken.url, '/ready');
    expect(res.status).toBe(503);
    expect(res.json()).toMatchObject({
      status: 'not_ready',
      checks: { database: { ok: false, error: 'connect ECONNREFUSED 127.0.0.1:5432' }, objectStore: { ok: true } },
    });
  } finally {
    await broken.close();
  }
});

test('/metrics: requests by route pattern and status, and cache hits and misses, move', async () => {
  const scrape = async () => (await get(delivery.url, '/metrics')).body.toString();
  const ok = 'http_requests_total{route="/consume",method="GET",status="200",service="delivery-api"}';
  const notFound = 'http_requests_total{route="/consume",method="GET",status="404",service="delivery-api"}';
  const hits = 'delivery_cache_lookups_total{result="hit",service="delivery-api"}';
  const misses = 'delivery_cache_lookups_total{result="miss",service="delivery-api"}';
  const before = await scrape();
  expect(before).toContain('# TYPE http_request_duration_seconds histogram');
  expect(sample(before, hits)).toBe(0);

  expect((await get(delivery.url, `/consume?id=${componentId}&env=prod`)).status).toBe(200);
  expect((await get(delivery.url, `/consume?id=${componentId}&env=prod`)).status).toBe(200);
  expect((await get(delivery.url, '/consume?id=00000000-0000-4000-8000-00000000abcd')).status).toBe(404);
  expect((await get(delivery.url, '/openapi.json')).status).toBe(200);

  const after = await scrape();
  expect(sample(after, ok)).toBe(2);
  expect(sample(after, notFound)).toBe(1);
  expect(sample(after, 'http_request_duration_seconds_count{route="/consume",method="GET",status="200",service="delivery-api"}')).toBe(2);
  expect(sample(after, hits)).toBe(1);
  expect(sample(after, misses)).toBe(2);
  expect(sample(after, 'http_requests_total{route="/openapi.json",method="GET",status="200",service="delivery-api"}')).toBe(1);
  expect(after).not.toContain(componentId);
  expect(after).toContain('process_resident_memory_bytes');
});
