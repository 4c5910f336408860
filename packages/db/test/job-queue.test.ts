import { createJobBoss, createJobSender, Queue } from '../src/index.js';
import { createTestDatabase, type TestDatabase } from '../src/testing/index.js';

// pg-boss on the project's own connections: a job sent inside a Prisma transaction commits or
// rolls back with it, on both Prisma adapters, and a worker's pg-boss sees it.
let db: TestDatabase;
const sender = createJobSender();

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.close();
});

const jobsNamed = async (marker: string) =>
  db.prisma.$queryRawUnsafe<{ id: string; state: string; data: { marker: string } }[]>(
    `SELECT id::text, state::text, data FROM jobs.job WHERE name = $1 AND data->>'marker' = $2`,
    Queue.WebhookDelivery,
    marker,
  );

test('a job sent inside a committed transaction is stored with the queue policy', async () => {
  const id = await db.prisma.$transaction(async (tx) =>
    sender.send(tx, Queue.WebhookDelivery, { marker: 'committed' }),
  );
  const rows = await db.prisma.$queryRawUnsafe<
    { id: string; retry_limit: number; retry_delay: number; retry_backoff: boolean }[]
  >(
    `SELECT id::text, retry_limit, retry_delay, retry_backoff FROM jobs.job WHERE id = $1::uuid`,
    id,
  );
  expect(rows).toEqual([{ id, retry_limit: 10, retry_delay: 60, retry_backoff: true }]);
});

test('a job sent inside a transaction that fails is not stored', async () => {
  await expect(
    db.prisma.$transaction(async (tx) => {
      await sender.send(tx, Queue.WebhookDelivery, { marker: 'rolled-back' });
      throw new Error('the change failed');
    }),
  ).rejects.toThrow('the change failed');
  expect(await jobsNamed('rolled-back')).toEqual([]);
});

test('a job with an explicit id is enqueued once however often it is sent', async () => {
  const id = '0b0e4a5e-8c3c-4a53-9d55-5b1b0f1f2a01';
  await db.prisma.$transaction(async (tx) =>
    sender.send(tx, Queue.WebhookDelivery, { marker: 'same-id' }, { id }),
  );
  await db.prisma.$transaction(async (tx) =>
    sender.send(tx, Queue.WebhookDelivery, { marker: 'same-id' }, { id }),
  );
  expect((await jobsNamed('same-id')).map((row) => row.id)).toEqual([id]);
});

test("a worker's pg-boss, on the same database, fetches and completes the job", async () => {
  await db.prisma.$transaction(async (tx) =>
    sender.send(tx, Queue.WebhookDelivery, { marker: 'worked' }),
  );
  const boss = createJobBoss(db.database.jobsDb);
  boss.on('error', () => undefined);
  await boss.start();
  try {
    const seen: string[] = [];
    await boss.work<{ marker: string }>(
      Queue.WebhookDelivery,
      { pollingIntervalSeconds: 0.5 },
      async ([job]) => {
        seen.push(job!.data.marker);
      },
    );
    const deadline = Date.now() + 10_000;
    while (!seen.includes('worked') && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 100));
    expect(seen).toContain('worked');
  } finally {
    await boss.stop({ graceful: false, wait: true, close: false });
  }
  const deadline = Date.now() + 5_000;
  let rows = await jobsNamed('worked');
  while (rows[0]?.state !== 'completed' && Date.now() < deadline) rows = await jobsNamed('worked');
  expect(rows.map((row) => row.state)).toEqual(['completed']);
});
