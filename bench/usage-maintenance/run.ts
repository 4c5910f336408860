/**
 * The usage analytics' maintenance rounds (apps/worker/src/usage/usage-jobs.ts) on a database
 * holding what months of traffic leave: do they stay as fast with 13 months of hourly rollups as
 * with none? PostgreSQL (a database of its own, created from the test template, dropped after).
 * Seeds COMPONENTS components x 2 environments x 5 types: 48 h of minute rollups, 8 days of raw
 * events (EVENTS_PER_DAY a day); times the rollup round and a day's raw read; then adds 13 months
 * of hourly rollups, ANALYZEs, times them again, and times the retention round's pieces
 * (a day's partition dropped, an hour of minutes and of hours pruned). Prints the median of RUNS
 * and the plan's scan of each statement.
 *
 * Run:  pnpm --filter @cp/db bench:usage-maintenance
 * Env: BENCH_POSTGRES_URL (default: the local server), BENCH_COMPONENTS (default 50),
 * BENCH_EVENTS_PER_DAY (default 200000), BENCH_RUNS (default 5).
 */
import { performance } from 'node:perf_hooks';
import { aComponent, aUserWithOrganization, createTestDatabase } from '../../packages/db/src/testing/index.js';
import { countRawEvents, createUsageMaintenance } from '../../packages/db/src/usage/index.js';
import { rollUpUsage } from '../../apps/worker/src/usage/usage-jobs.js';

const COMPONENTS = Number(process.env.BENCH_COMPONENTS ?? 50);
const EVENTS_PER_DAY = Number(process.env.BENCH_EVENTS_PER_DAY ?? 200_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const HOUR = 3_600_000;
const DAY = 86_400_000;
const retention = { rawDays: 7, minuteHours: 48, hourMonths: 13 };

const db = await createTestDatabase({ kind: 'postgres', databaseUrl: process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' });
const sql = db.database.sql;
const run = (text: string, values: unknown[] = []) => sql.rows<Record<string, unknown>>({ text, values }, { planEachCall: true });
const maintenance = createUsageMaintenance(sql);
const now = new Date(Math.floor(Date.now() / HOUR) * HOUR + 20 * 60_000);
const clock = { now: () => now };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
async function timed(name: string, call: () => Promise<unknown>, runs = RUNS): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await call();
    times.push(performance.now() - started);
  }
  console.log(`${name.padEnd(58)} median ${median(times).toFixed(1).padStart(8)} ms  (${times.map((t) => t.toFixed(0)).join(', ')})`);
}
async function scans(name: string, text: string, values: unknown[]): Promise<void> {
  const [row] = await run(`EXPLAIN (FORMAT JSON) ${text}`, values);
  const found: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      const n = node as Record<string, unknown>;
      const type = n['Node Type'];
      if (typeof type === 'string' && /Scan/.test(type)) found.push(`${type}${n['Relation Name'] ? ` ${String(n['Relation Name'])}` : ''}${n['Index Name'] ? ` (${String(n['Index Name'])})` : ''}`);
      Object.values(n).forEach(walk);
    }
  };
  walk(row!['QUERY PLAN']);
  console.log(`plan ${name}: ${[...new Set(found)].join('; ')}`);
}

try {
  const seedStarted = performance.now();
  const { user, organization } = await aUserWithOrganization(db.repos);
  const components: { componentId: string; variantId: string }[] = [];
  for (let i = 0; i < COMPONENTS; i++) {
    const component = await aComponent(db.repos, { organizationId: organization.id, createdBy: user.id });
    components.push({ componentId: component.id, variantId: (await db.repos.variants.findLatest(component.id))!.id });
  }
  const ids = components.map((c) => c.componentId);
  const variants = components.map((c) => c.variantId);
  const keys = `unnest($1::uuid[], $2::uuid[]) AS c(component_id, variant_id), unnest(ARRAY['prod', 'staging']) AS e(environment),
    unnest(ARRAY['load', 'render', 'error', 'interaction', 'served'], ARRAY['consume', 'ready', 'uncaught', 'click', 'consume']) AS t(type, name)`;
  const histogram = `CASE WHEN t.type IN ('load', 'render') THEN array_fill(3, ARRAY[40]) END`;
  // Minute rollups: the last 48 hours, every minute of every key.
  await run(
    `INSERT INTO "usage".minutes SELECT c.component_id, m, e.environment, c.variant_id, t.type, t.name, 120, CASE WHEN t.type = 'error' THEN 120 ELSE 0 END, 2400, ${histogram}
     FROM generate_series($3::timestamptz, $4::timestamptz - interval '1 minute', interval '1 minute') AS m, ${keys}`,
    [ids, variants, new Date(now.getTime() - 48 * HOUR), now],
  );
  // Raw events: today and the 7 days before, in time order.
  await maintenance.createPartitions(new Date(now.getTime() - 8 * DAY), 11);
  for (let day = 7; day >= 0; day--) {
    const start = new Date(Math.floor(now.getTime() / DAY) * DAY - day * DAY);
    await run(
      `INSERT INTO "usage".events SELECT $3::timestamptz + (i * ($4::float8 / $5)) * interval '1 millisecond', ($1::uuid[])[1 + i % $6], 'prod', ($2::uuid[])[1 + i % $6],
         'render', 'ready', (i % 997)::float8, NULL, 'iframe', '1.1.0', 'shop.example', 'AAAAAAAAAAAAAAAAAAAAAA', i, 1, 'chrome', NULL, NULL, NULL
       FROM generate_series(0, $5 - 1) AS i`,
      [ids, variants, start, DAY, EVENTS_PER_DAY, COMPONENTS],
    );
  }
  await run('ANALYZE "usage".minutes');
  await run('ANALYZE "usage".events');
  console.log(`seeded ${COMPONENTS} components, 48 h of minutes, 8 days x ${EVENTS_PER_DAY} raw events in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);

  const [one] = components;
  const rawDay = () => countRawEvents(sql, { componentId: one!.componentId, from: new Date(now.getTime() - DAY), to: now });
  await rollUpUsage({ maintenance, clock, retention }); // the first round rolls up the 48 h
  await timed('rollup round (1 h), no older hourly rollups', () => rollUpUsage({ maintenance, clock, retention }));
  await timed('retention round\'s rollup (6 h), no older hourly rollups', () => rollUpUsage({ maintenance, clock, retention }, 6));
  await timed("raw read of one component's last 24 h", rawDay);

  const historyStarted = performance.now();
  // A month per statement, oldest first (the order the rollups write them), each within the statement deadline.
  for (let start = now.getTime() - 396 * DAY; start < now.getTime() - 48 * HOUR; start += 30 * DAY) {
    await run(
      `INSERT INTO "usage".hours SELECT c.component_id, h, e.environment, c.variant_id, t.type, t.name, 7200, 0, 144000, ${histogram}
       FROM generate_series($3::timestamptz, $4::timestamptz, interval '1 hour') AS h, ${keys}`,
      [ids, variants, new Date(start), new Date(Math.min(start + 30 * DAY, now.getTime() - 48 * HOUR) - HOUR)],
    );
  }
  await run('ANALYZE "usage".hours');
  const [{ count } = { count: 0 }] = await run(`SELECT count(*)::int AS count FROM "usage".hours`);
  console.log(`added 13 months of hourly rollups (${String(count)} rows) in ${((performance.now() - historyStarted) / 1000).toFixed(0)} s`);

  await timed('rollup round (1 h), 13 months of hourly rollups', () => rollUpUsage({ maintenance, clock, retention }));
  await timed('retention round\'s rollup (6 h), 13 months of hourly rollups', () => rollUpUsage({ maintenance, clock, retention }, 6));
  await timed("raw read of one component's last 24 h", rawDay);
  let hour = 0;
  await timed('prune one hour of minutes and one of hours', async () => {
    hour += 1;
    await maintenance.pruneRollups({ minutesBefore: new Date(now.getTime() - (48 - hour) * HOUR), hoursBefore: new Date(now.getTime() - 396 * DAY + hour * HOUR) });
  });
  let day = 8;
  await timed(`drop a day's raw partition (${EVENTS_PER_DAY} rows)`, async () => {
    day -= 1;
    await maintenance.dropPartitionsBefore(new Date(Math.floor(now.getTime() / DAY) * DAY - (day - 1) * DAY));
  }, 3);
  await timed('create partitions 3 days ahead (present)', () => maintenance.createPartitions(now, 3));

  const oldest = new Date(now.getTime() - 47 * HOUR);
  await scans('last rolled hour', `SELECT max("hour") FROM "usage"."hours" WHERE "hour" >= $1`, [oldest]);
  await scans('rollup read', `SELECT count(*) FROM "usage"."minutes" WHERE "minute" >= $1 AND "minute" < $2`, [new Date(now.getTime() - 2 * HOUR), new Date(now.getTime() - HOUR)]);
  await scans('prune hours', `SELECT count(*) FROM "usage"."hours" WHERE "hour" < $1`, [new Date(now.getTime() - 395 * DAY)]);
} finally {
  await db.close();
}
