/**
 * Where a tool call's database time goes: seeds the bench organization, calls
 * each benchmarked tool once (after a warm-up call), and prints every SQL
 * statement it sent, with `EXPLAIN (ANALYZE, BUFFERS)` of each.
 *
 * Run (from apps/mcp-server): node --conditions=source --import tsx ../../bench/mcp/trace.ts
 * Env: BENCH_COMPONENTS (default 10000; the filtered listings' plans change with it),
 * TRACE_EXPLAIN=0 to skip the plans.
 */
import { createRequire } from 'node:module';
import { startBenchApp } from './bench-app.js';
import { COMMON_FRAGMENT, NO_MATCH_FRAGMENT } from './seed.js';

/** The part of `pg` used here (bench/ is not a package: pg is resolved from packages/db). */
interface PgClient {
  connect(): Promise<void>;
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  end(): Promise<void>;
}
type Query = (this: unknown, ...args: unknown[]) => unknown;
const pg = createRequire(new URL('../../packages/db/package.json', import.meta.url))('pg') as {
  Client: { new (options: { connectionString: string }): PgClient; prototype: { query: Query } };
};

// pg is CommonJS, so this is the module Prisma's adapter uses: patching the client
// prototype sees every statement the pool sends.
const sent: { text: string; values: unknown[] }[] = [];
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
  const [config, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
  const text = typeof config === 'string' ? config : config.text;
  sent.push({ text, values: values ?? (typeof config === 'string' ? [] : (config.values ?? [])) });
  return query.apply(this, args);
};

const app = await startBenchApp(Number(process.env.BENCH_COMPONENTS ?? 10_000));
const { target } = app;
const call = async (name: string, args: Record<string, unknown>): Promise<string> => {
  const response = await fetch(target.url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${target.token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  return response.text();
};

const calls: [string, string, Record<string, unknown>][] = [
  ['get_component (content)', 'get_component', { componentId: target.componentId }],
  ['get_component (no content)', 'get_component', { componentId: target.componentId, includeContent: false }],
  ['list_components', 'list_components', { organizationId: target.organizationId }],
  [`list_components name="${COMMON_FRAGMENT}"`, 'list_components', { organizationId: target.organizationId, name: COMMON_FRAGMENT }],
  [`list_components name="${NO_MATCH_FRAGMENT}"`, 'list_components', { organizationId: target.organizationId, name: NO_MATCH_FRAGMENT }],
];
const explainer = new pg.Client({ connectionString: app.databaseUrl });
await explainer.connect();
for (const [label, name, args] of calls) {
  await call(name, args); // warm-up (and the grant check, cached afterwards)
  sent.length = 0;
  const body = await call(name, args);
  const statements = [...sent];
  console.log(`\n## ${label}: ${statements.length} statement(s), response ${body.length} bytes`);
  for (const { text, values } of statements) {
    console.log(`\n${text}\n  -- values: ${JSON.stringify(values)}`);
    if (process.env.TRACE_EXPLAIN === '0' || !/^\s*select/i.test(text)) continue;
    const plan = await explainer.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
    for (const row of plan.rows) console.log(`  | ${String(row['QUERY PLAN'])}`);
  }
}
await explainer.end();
await app.close();
