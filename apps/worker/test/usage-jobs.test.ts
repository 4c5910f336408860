import { randomUUID } from 'node:crypto';
import { createJobBoss, createUsageMaintenance, createUsageWriter, Queue } from '@cp/db';
import { aComponent, aUsageEvent, aUserWithOrganization, createTestDatabase, type TestDatabase } from '@cp/db/testing';
import type { UsageEvent } from '@cp/domain';
import { silentLogger } from '@cp/http-runtime';
import {
  createApp,
  keepUsageTables,
  rollUpUsage,
  usageRetentionJob,
  usageRollupJob,
  type UsageRetention,
  type WorkerApp,
} from '../src/index.js';

// The usage analytics' jobs on a real database (PGlite, or PostgreSQL with DATABASE_URL), the
// clock injected so that days pass at will; then the worker registering their schedules and
// running a scheduled round.
const DAY = 86_400_000;
const HOUR = 3_600_000;
const retention: UsageRetention = { rawDays: 7, minuteHours: 48, hourMonths: 13 };

let db: TestDatabase;
const workers: WorkerApp[] = [];
beforeAll(async () => {
  db = await createTestDatabase();
});
afterEach(async () => {
  // Gracefully: a round still running would otherwise write after the database is closed.
  await Promise.all(workers.splice(0).map((worker) => worker.stop({ graceful: true, timeoutMs: 5_000 })));
});
afterAll(async () => {
  await db.close();
});

const at = (iso: string) => new Date(iso);
const clockAt = (start: Date) => {
  let now = start;
  return { now: () => now, set: (to: Date) => void (now = to), advance: (ms: number) => void (now = new Date(now.getTime() + ms)) };
};
const rows = <R>(text: string, values: unknown[] = []) => db.database.sql.rows<R>({ text, values });
const partitions = async (prefix: string) =>
  (
    await rows<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'usage.events'::regclass ORDER BY 1`,
    )
  )
    .map((row) => row.name)
    .filter((name) => name.startsWith(prefix));

const anEvent = (componentId: string, variantId: string, when: Date, value = 20): UsageEvent =>
  aUsageEvent({ at: when, componentId, variantId, environment: 'prod', value });

async function aComponentWithVariant() {
  const { user, organization } = await aUserWithOrganization(db.repos);
  const component = await aComponent(db.repos, { organizationId: organization.id, createdBy: user.id });
  return { componentId: component.id, variantId: (await db.repos.variants.findLatest(component.id))!.id };
}

const hourCounts = async (componentId: string) =>
  (await rows<{ hour: Date; count: number }>(`SELECT hour, count::int AS count FROM "usage".hours WHERE component_id = $1 ORDER BY hour`, [componentId])).map(
    (row) => [row.hour.toISOString().slice(5, 13), row.count],
  );

test('the retention round keeps partitions three days ahead and drops raw days past retention as the days pass, never the current one', async () => {
  const clock = clockAt(at('2033-05-01T00:30:00Z'));
  const maintenance = createUsageMaintenance(db.database.sql);
  const round = await keepUsageTables({ maintenance, clock, retention });
  expect(round.created).toEqual(['events_20330501', 'events_20330502', 'events_20330503', 'events_20330504']);
  expect(round.dropped).toEqual([]);

  // A day at a time for ten days: each day adds the fourth day ahead, and from the eighth on drops the oldest.
  const dropped: string[] = [];
  for (let day = 1; day <= 10; day++) {
    clock.advance(DAY);
    const next = await keepUsageTables({ maintenance, clock, retention });
    dropped.push(...next.dropped);
  }
  expect(await partitions('events_2033')).toEqual(
    ['0504', '0505', '0506', '0507', '0508', '0509', '0510', '0511', '0512', '0513', '0514'].map((d) => `events_2033${d}`),
  );
  expect(dropped).toEqual(['events_20330501', 'events_20330502', 'events_20330503']);

  // A retention of one day still keeps yesterday and today.
  const short = await keepUsageTables({ maintenance, clock, retention: { ...retention, rawDays: 1 } });
  expect(short.dropped).toEqual(['events_20330504', 'events_20330505', 'events_20330506', 'events_20330507', 'events_20330508', 'events_20330509']);
  expect((await partitions('events_2033'))[0]).toBe('events_20330510');
  expect(clock.now().toISOString()).toBe('2033-05-11T00:30:00.000Z');
});

test('the rollup round picks up late minutes, catches up after the worker was stopped, and never rolls an hour whose minutes were pruned', async () => {
  const { componentId, variantId } = await aComponentWithVariant();
  const writer = createUsageWriter(db.database.sql);
  const maintenance = createUsageMaintenance(db.database.sql);
  const clock = clockAt(at('2033-06-10T09:02:00Z'));
  await writer.append([anEvent(componentId, variantId, at('2033-06-10T08:10:00Z')), anEvent(componentId, variantId, at('2033-06-10T08:59:30Z'))]);

  expect(await rollUpUsage({ maintenance, clock, retention })).toMatchObject({ hours: 1, until: at('2033-06-10T09:00:00Z') });
  expect(await hourCounts(componentId)).toEqual([['06-10T08', 2]]);

  // A late minute of 08:00, written after that round: the next round (five minutes on) corrects the hour.
  await writer.append([anEvent(componentId, variantId, at('2033-06-10T08:59:59Z'))]);
  clock.advance(5 * 60_000);
  await rollUpUsage({ maintenance, clock, retention });
  expect(await hourCounts(componentId)).toEqual([['06-10T08', 3]]);

  // Traffic goes on while no worker runs for a day: the next round rolls up every hour since the last rolled one.
  for (let hour = 9; hour < 33; hour += 4) await writer.append([anEvent(componentId, variantId, new Date(at('2033-06-10T00:20:00Z').getTime() + hour * HOUR))]);
  clock.set(at('2033-06-11T10:01:00Z'));
  const caughtUp = await rollUpUsage({ maintenance, clock, retention });
  expect(caughtUp.from).toEqual(at('2033-06-10T09:00:00Z'));
  expect(await hourCounts(componentId)).toEqual([
    ['06-10T08', 3],
    ['06-10T09', 1],
    ['06-10T13', 1],
    ['06-10T17', 1],
    ['06-10T21', 1],
    ['06-11T01', 1],
    ['06-11T05', 1],
  ]);

  // Three days later, the retention round prunes the old minutes; no round rolls their hours up again from what is left.
  clock.set(at('2033-06-13T09:30:00Z'));
  const kept = await keepUsageTables({ maintenance, clock, retention });
  expect(kept.minutesBefore).toEqual(at('2033-06-11T09:00:00Z'));
  const [minutes] = await rows<{ count: number }>(`SELECT count(*)::int AS count FROM "usage".minutes WHERE component_id = $1`, [componentId]);
  expect(minutes!.count).toBe(0);
  expect((await hourCounts(componentId)).length).toBe(7);
  const again = await rollUpUsage({ maintenance, clock, retention });
  expect(again.from >= kept.minutesBefore).toBe(true);
  expect((await hourCounts(componentId)).length).toBe(7);

  // Thirteen months on, the hourly rollups go too.
  clock.set(at('2034-07-14T00:00:00Z'));
  await keepUsageTables({ maintenance, clock, retention });
  expect(await hourCounts(componentId)).toEqual([]);
});

test('two workers register each schedule once and take the rounds sent to the queue; a queue holds at most one waiting round whatever the number of workers', async () => {
  const clock = clockAt(at('2033-08-01T12:00:00Z'));
  const deps = { maintenance: createUsageMaintenance(db.database.sql), clock, retention, log: silentLogger() };
  const rounds: string[] = [];
  const startWorker = async () => {
    const rollup = usageRollupJob(deps);
    const worker = createApp({
      boss: createJobBoss(db.database.jobsDb, { schedule: true }),
      log: silentLogger(),
      pollingIntervalSeconds: 0.5,
      jobs: [
        { ...rollup, handler: async (job) => void (rounds.push(job.id), await rollup.handler(job)) },
        usageRetentionJob(deps),
      ],
    });
    await worker.start();
    workers.push(worker);
  };
  await startWorker();
  await startWorker();
  const schedules = await rows<{ name: string; cron: string; timezone: string }>(`SELECT name, cron, timezone FROM jobs.schedule ORDER BY name`);
  expect(schedules).toEqual([
    { name: Queue.UsageRetention, cron: '7 * * * *', timezone: 'UTC' },
    { name: Queue.UsageRollup, cron: '*/5 * * * *', timezone: 'UTC' },
  ]);
  // A round as pg-boss's cron sends it (a job on the queue), rather than waiting up to a minute for the clock.
  const boss = createJobBoss(db.database.jobsDb);
  await boss.send(Queue.UsageRollup, {}, { id: randomUUID() });
  const deadline = Date.now() + 10_000;
  while (rounds.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  expect(rounds.length).toBe(1);

  // "stately": with no worker taking them, however many rounds are sent, one waits.
  await workers.splice(0).reduce((done, worker) => done.then(() => worker.stop({ graceful: true, timeoutMs: 5_000 })), Promise.resolve());
  for (let i = 0; i < 3; i++) await boss.send(Queue.UsageRetention, {}, { id: randomUUID() });
  const [waiting] = await rows<{ count: number }>(`SELECT count(*)::int AS count FROM jobs.job WHERE name = $1 AND state = 'created'`, [Queue.UsageRetention]);
  expect(waiting!.count).toBe(1);
}, 30_000);
