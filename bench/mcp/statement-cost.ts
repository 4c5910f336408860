/**
 * What one SQL statement costs the server, by the path it takes: the same reads
 * through Prisma (`$queryRaw`, model queries) and through the driver (the
 * repositories' `sql` reader), sequentially, CPU and wall time per call.
 * It is the evidence for `packages/db/src/sql-reader.ts` and the listing's
 * summary columns (bench/README.md, MCP section).
 *
 * Run (from apps/mcp-server): node --conditions=source --import tsx ../../bench/mcp/statement-cost.ts
 * Env: BENCH_COMPONENTS (default 10000), BENCH_CALLS (default 3000).
 */
import { createDatabase, Prisma } from '../../packages/db/src/index.js';
import { openBenchDomain } from './domain.js';
import { seedOrganization } from './seed.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 3000);
const bench = await openBenchDomain();
const seeded = await seedOrganization(bench, Number(process.env.BENCH_COMPONENTS ?? 10_000));
await bench.analyze();
// A database handle of our own, to send the same statements both ways.
const database = await createDatabase({ databaseUrl: bench.databaseUrl, poolSize: 2 });

const membership = Prisma.sql`EXISTS (SELECT 1 FROM memberships m WHERE m.organization_id = ${seeded.organizationId}::uuid AND m.user_id = ${seeded.userId}::uuid)`;
const page = (columns: Prisma.Sql) =>
  Prisma.sql`SELECT ${columns} FROM components WHERE organization_id = ${seeded.organizationId}::uuid AND ${membership} ORDER BY name_key LIMIT 51`;
const allColumns = Prisma.sql`id, organization_id AS "organizationId", name, name_key AS "nameKey", description, tags,
  variants_count AS "variantsCount", created_at AS "createdAt", updated_at AS "updatedAt"`;
const summaryColumns = Prisma.sql`id, name, description, tags, variants_count AS "variantsCount", updated_at AS "updatedAt"`;
const byId = Prisma.sql`SELECT id, name FROM components WHERE id = ${seeded.componentId}::uuid`;

const cases: [string, () => Promise<unknown>][] = [
  ['page of 51, all columns, Prisma $queryRaw', () => database.prisma.$queryRaw(page(allColumns))],
  ['page of 51, all columns, driver', () => database.sql.rows(page(allColumns))],
  ['page of 51, summary columns, driver', () => database.sql.rows(page(summaryColumns))],
  ['components.list as shipped (+ mapping)', () => bench.deps.repos.components.list({ organizationId: seeded.organizationId, memberId: seeded.userId, limit: 51 })],
  ['one row by id, Prisma findUnique', () => database.prisma.component.findUnique({ where: { id: seeded.componentId } })],
  ['one row by id, driver', () => database.sql.rows(byId)],
];

async function cost(run: () => Promise<unknown>): Promise<{ cpuUs: number; wallUs: number }> {
  for (let i = 0; i < 300; i += 1) await run(); // JIT, prepared statements, pool
  const cpu = process.cpuUsage();
  const start = performance.now();
  for (let i = 0; i < CALLS; i += 1) await run();
  const spent = process.cpuUsage(cpu);
  return { cpuUs: (spent.user + spent.system) / CALLS, wallUs: ((performance.now() - start) * 1000) / CALLS };
}

// Two passes, reported side by side: the second shows how much the machine moved.
const results = new Map<string, string[]>();
for (let pass = 0; pass < 2; pass += 1) {
  for (const [name, run] of cases) {
    const { cpuUs, wallUs } = await cost(run);
    results.set(name, [...(results.get(name) ?? []), `${cpuUs.toFixed(0)} / ${wallUs.toFixed(0)}`]);
  }
}
console.log(`server CPU / wall per call, µs (${CALLS} sequential calls, 2 passes); node ${process.version}`);
console.log('| statement | pass 1 | pass 2 |\n|---|---|---|');
for (const [name, passes] of results) console.log(`| ${name} | ${passes.join(' | ')} |`);

await database.close();
await bench.close();
