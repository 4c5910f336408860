/**
 * MCP tool-call benchmark, load from wrk in its own process (wrk.ts), at 1 and 20
 * connections:
 * - the read tools, get_component (with and without content) and list_components (an
 *   organization of 10,000 components), against the SDK's minimal stateless echo server
 *   measured in the same run;
 * - list_components with a name filter (a common fragment; one that matches nothing; one
 *   whose matches all come last in name order; two characters that match nothing) in
 *   organizations of 1,000 and 100,000 components: p50 at each size against the smallest.
 * RUNS rounds, each measuring the baseline then every scenario; a ratio is the median of
 * the per-round ratios.
 *
 * Run (from the repo root):  pnpm --filter @cp/mcp-server bench
 * Env: BENCH_DURATION (s, default 5), BENCH_RUNS (rounds, default 5), BENCH_COMPONENTS
 * (default 10000), BENCH_FILTER_SIZES (default 1000,100000), BENCH_SCENARIOS
 * (comma-separated name fragments: run only those, plus the baseline; `whoami` and `tools/list`
 * add the diagnostics), BENCH_CPU_PROF_DIR (profile the app server child).
 */
import type { BenchTarget } from './bench-app.js';
import { canMeasureCpu } from './cpu-time.js';
import { measure, median, startChild, validate, type Sample, type Scenario } from './measure.js';
import { COMMON_FRAGMENT, LATE_FRAGMENT, NO_MATCH_FRAGMENT, SHORT_NO_MATCH_FRAGMENT } from './seed.js';
import { ensureWrk } from '../ensure-wrk.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CONNECTIONS = [1, 20];
const READ_TARGET = 0.5;
const FILTER_TARGET = 1.5;

ensureWrk('bench/mcp');

const call = (name: string, args: Record<string, unknown>): string =>
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });

// Both servers run in their own process, and so does wrk.
const app = await startChild<BenchTarget>('./app-server.ts');
const baseline = await startChild<{ url: string }>('./baseline-process.ts');
const target = app.ready;
const onApp = { url: target.url, pid: app.pid, authorization: `Bearer ${target.token}` };
const firstPage = '"count":50,';
const allScenarios: Scenario[] = [
  { name: 'baseline echo (SDK minimal server)', kind: 'baseline', url: baseline.ready.url, pid: baseline.pid, body: call('echo', { message: 'hello' }), expect: '"text":"hello"' },
  { name: 'get_component (content)', kind: 'read', ...onApp, body: call('get_component', { componentId: target.componentId }), expect: '"htmlContent":"<!doctype' },
  { name: 'get_component (no content)', kind: 'read', ...onApp, body: call('get_component', { componentId: target.componentId, includeContent: false }), expect: '"htmlContent":null' },
  // The MCP layer (auth, transport, tool dispatch) plus one primary-key read: a reference point.
  { name: 'whoami (one query by primary key)', kind: 'diagnostic', ...onApp, body: call('whoami', {}), expect: '"authenticated":true' },
  // The static listing plus the caller's apps (one query per tools/list, docs/mcp-apps.md): a client lists once per connection.
  { name: "tools/list (with the member's apps)", kind: 'diagnostic', ...onApp, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), expect: '"name":"whoami"' },
  { name: `list_components (org of ${target.components}, limit 50)`, kind: 'read', ...onApp, body: call('list_components', { organizationId: target.organizationId }), expect: firstPage },
  ...[COMMON_FRAGMENT, NO_MATCH_FRAGMENT, LATE_FRAGMENT, SHORT_NO_MATCH_FRAGMENT].flatMap((fragment) =>
    target.filterOrganizations.map(({ components, organizationId }): Scenario => ({
      name: `list_components name="${fragment}" (org of ${components})`,
      kind: 'filter',
      ...onApp,
      body: call('list_components', { organizationId, name: fragment }),
      expect: fragment === NO_MATCH_FRAGMENT || fragment === SHORT_NO_MATCH_FRAGMENT ? '"count":0,' : firstPage,
      filter: { fragment, components },
    })),
  ),
];
// The baseline always runs: the read tools' figures are ratios to it.
const only = process.env.BENCH_SCENARIOS?.split(',').map((part) => part.trim());
const scenarios = allScenarios.filter(
  (s) => s.kind === 'baseline' || (only === undefined ? s.kind !== 'diagnostic' : only.some((part) => s.name.includes(part))),
);

for (const scenario of scenarios) await validate(scenario);
// Warm-up: JIT, JWKS fetch, connection pools, statement plans.
for (const scenario of scenarios) await measure(scenario, 4, Math.min(DURATION, 3));

// Rounds: each measures the baseline and then every scenario, one after the other, and a
// ratio is taken within a round. The machine's speed drifts over minutes (other tenants);
// a ratio of neighbours in time is far steadier than a ratio of medians taken minutes apart.
interface Row {
  scenario: Scenario;
  connections: number;
  samples: Sample[];
  /** Median of per-round ratios: req/s to the baseline's, or (filters) p50 to the smallest organization's. */
  ratio: number | null;
}
const rows: Row[] = [];
for (const connections of CONNECTIONS) {
  const rounds: Sample[][] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const round: Sample[] = [];
    for (const scenario of scenarios) round.push(await measure(scenario, connections, DURATION));
    rounds.push(round);
    process.stderr.write(`.`);
  }
  scenarios.forEach((scenario, index) => {
    let reference = 0;
    let value = (sample: Sample): number => sample.rps;
    if (scenario.filter) {
      const { fragment } = scenario.filter;
      const smallest = Math.min(...target.filterOrganizations.map((o) => o.components));
      reference = scenarios.findIndex((s) => s.filter?.fragment === fragment && s.filter.components === smallest);
      value = (sample) => sample.p50;
    }
    rows.push({
      scenario,
      connections,
      samples: rounds.map((round) => round[index]!),
      ratio: reference < 0 ? null : median(rounds.map((round) => value(round[index]!) / value(round[reference]!))),
    });
  });
}
process.stderr.write('\n');
app.stop();
baseline.stop();

const us = (value: number): string => (canMeasureCpu() ? value.toFixed(0) : 'n/a');
const ms = (value: number): string => value.toFixed(value < 10 ? 2 : 1);
const ratio = (value: number | null): string => (value === null ? 'n/a' : `${value.toFixed(2)}x`);
const cells = (samples: Sample[]) => ({
  rps: median(samples.map((s) => s.rps)).toFixed(0),
  p50: ms(median(samples.map((s) => s.p50))),
  p99: ms(median(samples.map((s) => s.p99))),
  errors: samples.reduce((sum, s) => sum + s.errors, 0),
  cpu: [us(median(samples.map((s) => s.serverCpuUs))), us(median(samples.map((s) => s.postgresCpuUs))), us(median(samples.map((s) => s.wrkCpuUs)))].join(' | '),
});

console.log(`MCP tools/call benchmark: wrk -t1, ${RUNS} rounds x ${DURATION}s per cell, medians; node ${process.version}`);
console.log('\n| scenario | connections | req/s (median) | vs baseline (median of rounds) | p50 ms | p99 ms | errors | server CPU µs/req | PostgreSQL CPU µs/req | wrk CPU µs/req |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const row of rows.filter((r) => !r.scenario.filter)) {
  const c = cells(row.samples);
  console.log(`| ${row.scenario.name} | ${row.connections} | ${c.rps} | ${ratio(row.ratio)} | ${c.p50} | ${c.p99} | ${c.errors} | ${c.cpu} |`);
}
const filterRows = rows.filter((r) => r.scenario.filter);
if (filterRows.length > 0) {
  console.log('\n| list_components name filter | connections | org components | req/s (median) | p50 ms | p99 ms | errors | server CPU µs/req | PostgreSQL CPU µs/req | wrk CPU µs/req | p50 vs smallest org (median of rounds) |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const row of filterRows) {
    const c = cells(row.samples);
    console.log(`| "${row.scenario.filter!.fragment}" | ${row.connections} | ${row.scenario.filter!.components} | ${c.rps} | ${c.p50} | ${c.p99} | ${c.errors} | ${c.cpu} | ${ratio(row.ratio)} |`);
  }
}

const errors = rows.some((r) => r.samples.some((s) => s.errors > 0));
const readMissed = rows.some((r) => r.scenario.kind === 'read' && r.ratio !== null && r.ratio < READ_TARGET);
const filterMissed = filterRows.some((r) => r.ratio !== null && r.ratio > FILTER_TARGET);
console.log('');
if (errors) console.log('ERRORS: some requests failed or answered something else than the expected result (errors column)');
console.log(readMissed ? `TARGET MISSED: a read tool is below ${READ_TARGET}x the baseline` : `read tools: every one >= ${READ_TARGET}x the baseline`);
if (filterRows.length > 0) {
  console.log(filterMissed ? `TARGET MISSED: a filtered listing's p50 is above ${FILTER_TARGET}x its p50 in the smallest organization` : `filtered listings: p50 within ${FILTER_TARGET}x of the smallest organization's`);
}
