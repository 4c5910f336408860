import { createJobBoss, createJobSender } from '@cp/db';
import { createTestDatabase, type TestDatabase } from '@cp/db/testing';
import { silentLogger } from '@cp/http-runtime';
import request from 'supertest';
import { createApp, defineJob, type WorkerApp } from '../src/index.js';

// The worker on a real database (PGlite, or PostgreSQL with DATABASE_URL): a job enqueued inside a
// transaction runs; a handler that throws is retried per the queue's policy; a queue without its
// migration stops the start with a message saying so.
let db: TestDatabase;
let worker: WorkerApp | undefined;
const sender = createJobSender();
const QUEUE = 'worker-test';

beforeAll(async () => {
  db = await createTestDatabase();
  // Production queues come from migrations; this test's own queue is created here.
  const setup = createJobBoss(db.database.jobsDb);
  await setup.createQueue(QUEUE);
});
afterEach(async () => {
  await worker?.stop({ graceful: false });
  worker = undefined;
});
afterAll(async () => {
  await db.close();
});

const until = async (done: () => boolean, timeoutMs = 15_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

test('a job enqueued in a transaction runs, and a failing attempt is retried until it succeeds', async () => {
  const attempts: { marker: string; retryCount: number }[] = [];
  worker = createApp({
    boss: createJobBoss(db.database.jobsDb),
    log: silentLogger(),
    pollingIntervalSeconds: 0.5,
    jobs: [
      defineJob<{ marker: string }>({
        queue: QUEUE,
        policy: { retryLimit: 3, retryDelay: 1, retryBackoff: false, expireInSeconds: 60 },
        async handler(job) {
          attempts.push({ marker: job.data.marker, retryCount: job.retryCount });
          if (attempts.length < 3) throw new Error('receiver down');
        },
      }),
    ],
  });
  await worker.start();
  await db.prisma.$transaction((tx) => sender.send(tx, QUEUE, { marker: 'flaky' }));
  await until(() => attempts.length === 3);
  expect(attempts).toEqual([
    { marker: 'flaky', retryCount: 0 },
    { marker: 'flaky', retryCount: 1 },
    { marker: 'flaky', retryCount: 2 },
  ]);
  const metrics = await request(worker.listener).get('/metrics');
  expect(metrics.text).toContain(
    'worker_jobs_total{queue="worker-test",result="failed",service="worker"} 2',
  );
});

test('a queue that no migration created stops the start', async () => {
  worker = createApp({
    boss: createJobBoss(db.database.jobsDb),
    log: silentLogger(),
    jobs: [
      defineJob({
        queue: 'never-migrated',
        policy: { retryLimit: 0, retryDelay: 1, retryBackoff: false, expireInSeconds: 60 },
        handler: async () => undefined,
      }),
    ],
  });
  await expect(worker.start()).rejects.toThrow(
    'The job queue "never-migrated" does not exist: add a migration that creates it (apps/worker/README.md, "Adding a queue").',
  );
});

test('GET / names the queues it works', async () => {
  const app = createApp({ boss: createJobBoss(db.database.jobsDb), log: silentLogger(), jobs: [] });
  const response = await request(app.listener).get('/');
  expect(response.status).toBe(200);
  expect(response.body).toEqual({ status: 'ok', queues: [] });
});
