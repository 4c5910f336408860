/**
 * The database side of the usage pages: getComponentUsage (the component page's charts and the
 * get_component_usage tool) for 24h, 7d and 30d, and getOrganizationUsage, on PostgreSQL (a
 * database of its own, created from the test template, seeded, dropped). An organization of
 * BENCH_COMPONENTS components at about 100 events/s for 30 days (seed.ts), ANALYZEd. Each run
 * calls the use case once, recording the usage reader's statements, then runs each of them
 * again under EXPLAIN (ANALYZE, BUFFERS, TIMING OFF: no clock read per row) and adds their execution times; a case's figure is
 * the median over BENCH_RUNS runs. Target: the component page over 30 days within 200 ms of
 * database time.
 *
 * Run:  pnpm --filter @cp/db bench:usage-queries
 * Env: BENCH_POSTGRES_URL (default: the local server), BENCH_COMPONENTS (default 1000),
 * BENCH_RUNS (default 15), BENCH_ORGANIZATION_RUNS (default BENCH_RUNS: the organization report
 * takes seconds), BENCH_DAYS (default 30). Seeding takes minutes: BENCH_KEEP=1 keeps the
 * database (its name is printed), and BENCH_DATABASE=<name> measures a kept one again without
 * seeding (drop it afterwards: `DROP DATABASE <name>`).
 */
import { performance } from 'node:perf_hooks';
import { getComponentUsage, getOrganizationUsage, type UsageWindow } from '../../packages/domain/src/index.js';
import type { SqlReader, SqlStatement } from '../../packages/db/src/sql-reader.js';
import { createDatabase } from '../../packages/db/src/client.js';
import { createRepositories } from '../../packages/db/src/repositories/index.js';
import { aUserWithOrganization, createTestDatabase } from '../../packages/db/src/testing/index.js';
import { createUsageReader } from '../../packages/db/src/usage/index.js';
import { addComponents } from '../mcp/seed.js';
import { seedUsage, type SeededComponent } from './seed.js';

const COMPONENTS = Number(process.env.BENCH_COMPONENTS ?? 1000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const ORGANIZATION_RUNS = Number(process.env.BENCH_ORGANIZATION_RUNS ?? RUNS);
const SERVER_URL = process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const KEPT = process.env.BENCH_DATABASE;
const DAYS = Number(process.env.BENCH_DAYS ?? 30);
const TARGET_MS = 200;
const DAY_MS = 86_400_000;

/** A new database, seeded; or one kept by an earlier run, as it was seeded. */
async function open() {
  if (KEPT !== undefined) {
    const url = new URL(SERVER_URL);
    url.pathname = `/${KEPT}`;
    const database = await createDatabase({ databaseUrl: url.toString(), poolSize: 4, queryTimeoutMs: 600_000, connectTimeoutMs: 30_000 });
    return { database, repos: createRepositories(database), prisma: database.prisma, close: () => database.close(), name: KEPT };
  }
  const test = await createTestDatabase({ kind: 'postgres', databaseUrl: SERVER_URL });
  const name = new URL(test.url!).pathname.slice(1);
  return { ...test, close: process.env.BENCH_KEEP === '1' ? () => test.database.close() : () => test.close(), name };
}

const db = await open();
try {
  const execute = async (sql: string, ...values: unknown[]): Promise<void> => {
    await db.prisma.$executeRawUnsafe(sql, ...values);
  };
  const query = <R>(text: string, ...values: unknown[]): Promise<R[]> => db.database.sql.rows<R>({ text, values }, { planEachCall: true });
  const seeded = KEPT === undefined ? await seed() : await find();
  const { now, organizationId, userId, components } = seeded;
  const [sizes] = await query<{ hours: string; minutes: string; bytes: string }>(
    `SELECT (SELECT count(*) FROM "usage"."hours") AS hours, (SELECT count(*) FROM "usage"."minutes") AS minutes,
            pg_size_pretty(pg_total_relation_size('"usage"."hours"') + pg_total_relation_size('"usage"."minutes"')) AS bytes`,
  );
  if (process.env.BENCH_KEEP === '1') process.stderr.write(`keeping the database ${db.name}\n`);

  async function seed() {
    const seedStarted = performance.now();
    const now = new Date();
    const { user, organization, environments } = await aUserWithOrganization(db.repos);
    await addComponents({ execute }, organization.id, user.id, COMPONENTS);
    // A second variant of each, released after the first in both environments.
    await execute(
      `INSERT INTO variants (id, component_id, sequence, object_key, size, sha256, integrity, created_by_id, created_at)
       SELECT gen_random_uuid(), id, 2, 'variants/' || id || '/seed-2', 10, repeat('0', 64), 'sha384-seed', $2::uuid, now()
       FROM components WHERE organization_id = $1::uuid`,
      organization.id,
      user.id,
    );
    await execute(`UPDATE components SET variants_count = 2 WHERE organization_id = $1::uuid`, organization.id);
    const components = await componentsOf(organization.id);
    const releases = { prod: new Date(now.getTime() - 10 * DAY_MS), staging: new Date(now.getTime() - 12 * DAY_MS) };
    for (const env of environments) {
      const at = env.name === 'prod' ? releases.prod : releases.staging;
      await execute(
        `INSERT INTO release_events (id, component_id, environment_id, variant_id, previous_variant_id, released_by_id, released_at)
         SELECT gen_random_uuid(), c.id, $2::uuid, c.v1, NULL, $3::uuid, $4::timestamptz - interval '40 days' FROM unnest($1::uuid[], $5::uuid[]) AS c(id, v1)`,
        components.map((c) => c.id), env.id, user.id, now, components.map((c) => c.v1),
      );
      await execute(
        `INSERT INTO release_events (id, component_id, environment_id, variant_id, previous_variant_id, released_by_id, released_at)
         SELECT gen_random_uuid(), c.id, $2::uuid, c.v2, c.v1, $3::uuid, $4::timestamptz FROM unnest($1::uuid[], $5::uuid[], $6::uuid[]) AS c(id, v1, v2)`,
        components.map((c) => c.id), env.id, user.id, at, components.map((c) => c.v1), components.map((c) => c.v2),
      );
      await execute(
        `INSERT INTO releases (component_id, environment_id, variant_id, released_by_id, released_at)
         SELECT c.id, $2::uuid, c.v2, $3::uuid, $4::timestamptz FROM unnest($1::uuid[], $5::uuid[]) AS c(id, v2)`,
        components.map((c) => c.id), env.id, user.id, at, components.map((c) => c.v2),
      );
    }
    await seedUsage(execute, components, { now, days: DAYS, releases });
    await execute('ANALYZE');
    process.stderr.write(`seeded ${COMPONENTS} components in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s\n`);
    return { now, organizationId: organization.id, userId: user.id, components };
  }

  /** A kept database: its largest organization, its owner, and the time it was seeded at (its latest minute). */
  async function find() {
    const [org] = await query<{ organizationId: string; userId: string; now: Date }>(
      `SELECT c.organization_id AS "organizationId", m.user_id AS "userId", (SELECT max(minute) FROM "usage"."minutes") AS now
       FROM components c JOIN memberships m ON m.organization_id = c.organization_id AND m.role::text = 'owner'
       GROUP BY 1, 2 ORDER BY count(*) DESC LIMIT 1`,
    );
    return { ...org!, components: await componentsOf(org!.organizationId) };
  }

  function componentsOf(organizationId: string): Promise<SeededComponent[]> {
    return query<SeededComponent>(
      `SELECT c.id, v1.id AS v1, v2.id AS v2 FROM components c
       JOIN variants v1 ON v1.component_id = c.id AND v1.sequence = 1 JOIN variants v2 ON v2.component_id = c.id AND v2.sequence = 2
       WHERE c.organization_id = $1 ORDER BY c.id`,
      organizationId,
    );
  }

  // The reader's statements, recorded as the use case sends them, then explained one by one.
  let recorded: SqlStatement[] = [];
  const recorder: SqlReader = {
    rows: (statement, options) => {
      recorded.push(statement);
      return db.database.sql.rows(statement, options);
    },
  };
  const deps = { repos: db.repos, usage: createUsageReader(recorder), clock: { now: () => now } };
  const actor = { userId };

  interface Explained { executionMs: number; hit: number; read: number }
  async function explain(statement: SqlStatement): Promise<Explained> {
    const [row] = await db.database.sql.rows<{ 'QUERY PLAN': [{ 'Execution Time': number; Plan: { 'Shared Hit Blocks': number; 'Shared Read Blocks': number } }] }>({
      text: `EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) ${statement.text}`,
      values: statement.values,
    });
    const [plan] = row!['QUERY PLAN'];
    return { executionMs: plan['Execution Time'], hit: plan.Plan['Shared Hit Blocks'], read: plan.Plan['Shared Read Blocks'] };
  }

  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  interface Case { name: string; call: (run: number) => Promise<unknown> }
  const componentAt = (run: number): string => components[(run * 37) % components.length]!.id;
  const cases: Case[] = [
    ...(['24h', '7d', '30d'] as UsageWindow[]).map((window): Case => ({
      name: `getComponentUsage ${window}`,
      call: (run) => getComponentUsage({ actor, componentId: componentAt(run), window }, deps),
    })),
    ...(['24h', '7d', '30d'] as UsageWindow[]).map((window): Case => ({
      name: `getOrganizationUsage ${window}`,
      call: () => getOrganizationUsage({ actor, organizationId, window }, deps),
    })),
  ];

  console.log(`Usage analytics, database side (PostgreSQL ${(await query<{ server_version: string }>('SHOW server_version'))[0]!.server_version}): ${components.length} components, ${DAYS} days, ${sizes!.hours} hourly and ${sizes!.minutes} minute rows (${sizes!.bytes}); median of ${RUNS} runs (organization: ${ORGANIZATION_RUNS}); node ${process.version}`);
  console.log('\n| case | statements | DB execution ms (median) [range] | shared blocks hit / read (median) | use case wall ms (median) |');
  console.log('|---|---|---|---|---|');
  let missed = false;
  for (const c of cases) {
    const dbMs: number[] = [];
    const wall: number[] = [];
    const hits: number[] = [];
    const reads: number[] = [];
    let statements = 0;
    await c.call(0); // warm-up: the pool's connections and the cache
    const runs = c.name.startsWith('getOrganizationUsage') ? ORGANIZATION_RUNS : RUNS;
    for (let run = 1; run <= runs; run += 1) {
      recorded = [];
      const started = performance.now();
      await c.call(run);
      wall.push(performance.now() - started);
      statements = recorded.length;
      let total = 0;
      let hit = 0;
      let read = 0;
      for (const statement of recorded) {
        const e = await explain(statement);
        total += e.executionMs;
        hit += e.hit;
        read += e.read;
      }
      dbMs.push(total);
      hits.push(hit);
      reads.push(read);
    }
    if (process.env.BENCH_PLAN === '1') {
      for (const statement of recorded) {
        const plan = await db.database.sql.rows<{ 'QUERY PLAN': string }>({ text: `EXPLAIN (ANALYZE, BUFFERS) ${statement.text}`, values: statement.values });
        process.stderr.write(`${c.name}:\n${plan.map((line) => line['QUERY PLAN']).join('\n')}\n`);
      }
    }
    if (c.name === 'getComponentUsage 30d') missed = median(dbMs) > TARGET_MS;
    console.log(`| ${c.name} | ${statements} | ${median(dbMs).toFixed(1)} [${Math.min(...dbMs).toFixed(1)}-${Math.max(...dbMs).toFixed(1)}] | ${median(hits)} / ${median(reads)} | ${median(wall).toFixed(1)} |`);
  }
  console.log(missed ? `\nTARGET MISSED: the component page over 30 days above ${TARGET_MS} ms of database time` : `\nthe component page over 30 days within ${TARGET_MS} ms of database time`);
} finally {
  await db.close();
}
