/**
 * The component listings at the repository, without the MCP or HTTP layers around them:
 * list_components' name-ordered listing and the dashboard's most-recently-updated one
 * (with and without a name filter) in organizations of 1,000 and 100,000 components, on
 * PostgreSQL (a database of its own, created and dropped) or the embedded PGlite.
 * ROUNDS rounds; each times CALLS calls of every case at every size, one after the
 * other; a case's ratio is the median over rounds of its p50 at each size to its p50
 * at the smallest. Target: every ratio at most 1.5.
 *
 * Run:  pnpm --filter @cp/db bench:listing      (BENCH_EMBEDDED=1: PGlite)
 * Env: BENCH_POSTGRES_URL (default: the local server), BENCH_FILTER_SIZES (default
 * 1000,100000), BENCH_RUNS (rounds, default 5), BENCH_CALLS (per case and size, default
 * 40), BENCH_SCENARIOS (comma-separated parts of case names: run only those).
 */
import { performance } from 'node:perf_hooks';
import type { Components } from '../../packages/domain/src/index.js';
import { aUserWithOrganization, createTestDatabase } from '../../packages/db/src/testing/index.js';
import { addComponents, COMMON_FRAGMENT, LATE_FRAGMENT, NO_MATCH_FRAGMENT, SHORT_NO_MATCH_FRAGMENT } from '../mcp/seed.js';

const SIZES = (process.env.BENCH_FILTER_SIZES ?? '1000,100000').split(',').filter(Boolean).map(Number);
const ROUNDS = Number(process.env.BENCH_RUNS ?? 5);
const CALLS = Number(process.env.BENCH_CALLS ?? 40);
const TARGET = 1.5;
const embedded = process.env.BENCH_EMBEDDED === '1';

interface Case {
  readonly name: string;
  /** One call in `organizationId`; resolves to the number of rows. */
  readonly call: (components: Components, organizationId: string) => Promise<number>;
}
const byName = (fragment: string): Case => ({
  name: `list name="${fragment}"`,
  call: async (c, organizationId) => (await c.list({ organizationId, nameContains: fragment, limit: 51 })).length,
});
// The dashboard asks for one more row than its page of 20, to know whether a next page exists.
const recent = (fragment?: string): Case => ({
  name: fragment ? `recently updated name="${fragment}"` : 'recently updated',
  call: async (c, organizationId) =>
    (await c.listRecentlyUpdated({ organizationId, limit: 21, offset: 0, ...(fragment ? { nameContains: fragment } : {}) })).length,
});
const only = process.env.BENCH_SCENARIOS?.split(',').map((part) => part.trim());
const cases = [
  byName(COMMON_FRAGMENT),
  byName(NO_MATCH_FRAGMENT),
  byName(LATE_FRAGMENT),
  byName(SHORT_NO_MATCH_FRAGMENT),
  recent(),
  recent(LATE_FRAGMENT),
  recent(SHORT_NO_MATCH_FRAGMENT),
].filter((c) => only === undefined || only.some((part) => c.name.includes(part)));

const seedStarted = performance.now();
const db = await createTestDatabase(
  embedded ? { kind: 'pglite' } : { kind: 'postgres', databaseUrl: process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' },
);
const execute = async (sql: string, ...values: unknown[]): Promise<void> => {
  await db.prisma.$executeRawUnsafe(sql, ...values);
};
const organizations: { size: number; id: string }[] = [];
for (const size of SIZES) {
  const { user, organization } = await aUserWithOrganization(db.repos);
  await addComponents({ execute }, organization.id, user.id, size);
  organizations.push({ size, id: organization.id });
}
// Planner statistics, as autovacuum keeps them on a server (and createDatabase's
// auto-analyze in PGlite, after a change this large).
await execute('ANALYZE');
process.stderr.write(`seeded ${SIZES.join(' + ')} components in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s\n`);

const components = db.repos.components;
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
async function p50(c: Case, organizationId: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < CALLS; i += 1) {
    const started = performance.now();
    await c.call(components, organizationId);
    times.push(performance.now() - started);
  }
  return median(times);
}

// Every case answers the same number of rows at every size (checked here, and warming up).
for (const c of cases) {
  const counts = await Promise.all(organizations.map((o) => c.call(components, o.id)));
  if (new Set(counts).size !== 1) throw new Error(`${c.name}: ${counts.join(' / ')} rows at ${SIZES.join(' / ')} components`);
  for (const o of organizations) await p50(c, o.id);
}

const rounds: number[][][] = []; // [round][case][size] = p50 ms
for (let round = 0; round < ROUNDS; round += 1) {
  const row: number[][] = [];
  for (const c of cases) {
    const bySize: number[] = [];
    for (const o of organizations) bySize.push(await p50(c, o.id));
    row.push(bySize);
  }
  rounds.push(row);
  process.stderr.write('.');
}
process.stderr.write('\n');
await db.close();

console.log(`Component listings at the repository, ${embedded ? 'PGlite' : 'PostgreSQL'}: ${ROUNDS} rounds x ${CALLS} calls per case and size; node ${process.version}`);
console.log(`\n| case | ${SIZES.map((s) => `p50 ms at ${s}`).join(' | ')} | ${SIZES.slice(1).map((s) => `${s} vs ${SIZES[0]} (median of rounds) [range]`).join(' | ')} |`);
console.log(`|---|${SIZES.map(() => '---|').join('')}${SIZES.slice(1).map(() => '---|').join('')}`);
let missed = false;
cases.forEach((c, i) => {
  const p50s = SIZES.map((_, s) => median(rounds.map((r) => r[i]![s]!)).toFixed(3));
  const ratios = SIZES.slice(1).map((_, s) => {
    const perRound = rounds.map((r) => r[i]![s + 1]! / r[i]![0]!);
    const value = median(perRound);
    missed ||= value > TARGET;
    return `${value.toFixed(2)}x [${Math.min(...perRound).toFixed(2)}-${Math.max(...perRound).toFixed(2)}]`;
  });
  console.log(`| ${c.name} | ${p50s.join(' | ')} | ${ratios.join(' | ')} |`);
});
console.log(missed ? `\nTARGET MISSED: a case is above ${TARGET}x its p50 at ${SIZES[0]}` : `\nevery case within ${TARGET}x its p50 at ${SIZES[0]}`);
