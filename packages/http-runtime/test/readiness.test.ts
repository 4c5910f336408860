import { createServer } from 'node:http';
import { createMetrics, createReadiness, listen } from '../src/index.js';

const serve = async (readiness: ReturnType<typeof createReadiness>) => {
  const server = createServer((req, res) => readiness.handler(req, res));
  const port = await listen(server, 0, '127.0.0.1');
  return { url: `http://127.0.0.1:${port}/ready`, close: () => new Promise((resolve) => server.close(resolve)) };
};

test('200 with per-check detail when every dependency answers', async () => {
  const ready = await serve(createReadiness({ checks: { database: async () => 1, objectStore: async () => 1 } }));
  const res = await fetch(ready.url);
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(await res.json()).toEqual({
    status: 'ready',
    checks: { database: { ok: true, ms: expect.any(Number) }, objectStore: { ok: true, ms: expect.any(Number) } },
  });
  await ready.close();
});

test('503 naming the failing check; a hung check fails at its timeout; credentials never shown', async () => {
  const ready = await serve(
    createReadiness({
      timeoutMs: 200,
      checks: {
        database: async () => {
          throw new Error('connect ECONNREFUSED postgres://app:s3cret@db:5432/x');
        },
        objectStore: () => new Promise(() => undefined),
        redis: async () => 'PONG',
      },
    }),
  );
  const started = Date.now();
  const res = await fetch(ready.url);
  expect(Date.now() - started).toBeLessThan(1_500);
  expect(res.status).toBe(503);
  const body = await res.json();
  expect(body).toMatchObject({
    status: 'not_ready',
    checks: {
      database: { ok: false, error: 'connect ECONNREFUSED postgres://***@db:5432/x' },
      objectStore: { ok: false, error: 'timed out after 200 ms' },
      redis: { ok: true },
    },
  });
  await ready.close();
});

test('503 once draining, whatever the checks say', async () => {
  let draining = false;
  const readiness = createReadiness({ checks: { database: async () => 1 }, draining: () => draining });
  expect((await readiness.report()).status).toBe('ready');
  draining = true;
  expect(await readiness.report()).toMatchObject({ status: 'not_ready', draining: true, checks: { database: { ok: true } } });
});

test('the metrics count failed checks by name and keep the last answer', async () => {
  const metrics = createMetrics({ service: 'test', processMetrics: false });
  let down = true;
  const readiness = createReadiness({
    metrics,
    checks: {
      database: async () => {
        if (down) throw new Error('connect ECONNREFUSED');
      },
      objectStore: async () => 1,
    },
  });
  await readiness.report();
  await readiness.report();
  let text = await metrics.registry.metrics();
  expect(text).toMatch(/readiness_check_failures_total\{check="database",service="test"\} 2/);
  expect(text).not.toMatch(/check="objectStore"/);
  expect(text).toMatch(/^ready\{service="test"\} 0$/m);
  down = false;
  await readiness.report();
  text = await metrics.registry.metrics();
  expect(text).toMatch(/readiness_check_failures_total\{check="database",service="test"\} 2/);
  expect(text).toMatch(/^ready\{service="test"\} 1$/m);
});
