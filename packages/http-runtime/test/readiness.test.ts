import { createServer } from 'node:http';
import { createReadiness, listen } from '../src/index.js';

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
