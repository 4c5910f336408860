/**
 * MCP tool-call benchmark: throughput and p50/p99 latency of tools/call for
 * get_component (with and without content) and list_components (an organization
 * of 10,000 components), at 1 and 20 concurrent connections, against the SDK's
 * minimal stateless echo server measured in the same run: RUNS rounds, each
 * measuring the baseline then every scenario; the ratio is the median of the
 * per-round ratios.
 *
 * Run (from the repo root):  pnpm --filter @cp/mcp-server bench
 * Env: BENCH_DURATION (s, default 5), BENCH_RUNS (rounds, default 5), BENCH_COMPONENTS
 * (default 10000), BENCH_SCENARIOS (comma-separated name fragments: run only those,
 * plus the baseline; `whoami` adds the no-database diagnostic),
 * BENCH_CPU_PROF_DIR (profile the app server child).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { BenchTarget } from './bench-app.js';
import { canMeasureCpu, cpuStopwatch } from './cpu-time.js';
import { autocannon } from './resolve.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CONNECTIONS = [1, 20];
/** Runs one server script in a child process; resolves with the JSON line it prints when ready. */
function startChild<T>(script: string): Promise<{ ready: T; pid: number; stop(): void }> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(new URL(script, import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      resolve({ ready: JSON.parse(line) as T, pid: child.pid!, stop: () => child.kill('SIGTERM') });
    });
  });
}

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time per request, in microseconds: the server process, and all of PostgreSQL. */
  serverCpuUs: number;
  postgresCpuUs: number;
}

async function measure(url: string, body: object, connections: number, headers: Record<string, string>, serverPid: number): Promise<Sample> {
  const cpu = cpuStopwatch(serverPid);
  const result = await autocannon({
    url,
    method: 'POST',
    connections,
    duration: DURATION,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', ...headers },
    body: JSON.stringify(body),
  });
  const spent = cpu.stop();
  const requests = Math.max(1, result.requests.total);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    serverCpuUs: (spent.serverMs * 1000) / requests,
    postgresCpuUs: (spent.postgresMs * 1000) / requests,
  };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const call = (name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });

// Both servers run in their own process, the load generator (autocannon) in this one:
// a server sharing the load generator's event loop would skip the cross-process hop at
// 1 connection and compete with it for one core at 20.
const app = await startChild<BenchTarget>('./app-server.ts');
const baseline = await startChild<{ url: string }>('./baseline-process.ts');
const auth = { authorization: `Bearer ${app.ready.token}` };
/** `diagnostic`: not part of the target table; runs only when BENCH_SCENARIOS names it. */
const allScenarios: { name: string; url: string; pid: number; body: object; headers: Record<string, string>; diagnostic?: boolean }[] = [
  { name: 'baseline echo (SDK minimal server)', url: baseline.ready.url, pid: baseline.pid, body: call('echo', { message: 'hello' }), headers: {} },
  { name: 'get_component (content)', url: app.ready.url, pid: app.pid, body: call('get_component', { componentId: app.ready.componentId }), headers: auth },
  { name: 'get_component (no content)', url: app.ready.url, pid: app.pid, body: call('get_component', { componentId: app.ready.componentId, includeContent: false }), headers: auth },
  // The MCP layer (auth, transport, tool dispatch) plus one primary-key read: a reference point.
  { name: 'whoami (one query by primary key)', url: app.ready.url, pid: app.pid, body: call('whoami', {}), headers: auth, diagnostic: true },
  { name: `list_components (org of ${app.ready.components}, limit 50)`, url: app.ready.url, pid: app.pid, body: call('list_components', { organizationId: app.ready.organizationId }), headers: auth },
];
// The baseline always runs: every figure is a ratio to it.
const only = process.env.BENCH_SCENARIOS?.split(',').map((part) => part.trim());
const scenarios = allScenarios.filter(
  (s, i) => i === 0 || (only === undefined ? s.diagnostic !== true : only.some((part) => s.name.includes(part))),
);

// Warm-up: JIT, JWKS fetch, connection pools.
for (const scenario of scenarios) await measure(scenario.url, scenario.body, 4, scenario.headers, scenario.pid);

// Rounds: each run measures the baseline and then every scenario, one after the other, and a
// scenario's ratio is taken against the baseline of its own round. The machine's speed drifts
// over minutes (other tenants); a ratio of neighbours in time is far steadier than a ratio of
// medians taken minutes apart.
const rows: { scenario: string; connections: number; rps: number; ratio: number; p50: number; p99: number; errors: number; serverCpuUs: number; postgresCpuUs: number }[] = [];
for (const connections of CONNECTIONS) {
  const rounds: Sample[][] = [];
  for (let run = 0; run < RUNS; run += 1) {
    const round: Sample[] = [];
    for (const scenario of scenarios) round.push(await measure(scenario.url, scenario.body, connections, scenario.headers, scenario.pid));
    rounds.push(round);
    process.stderr.write(`.`);
  }
  scenarios.forEach((scenario, index) => {
    const samples = rounds.map((round) => round[index]!);
    rows.push({
      scenario: scenario.name,
      connections,
      rps: median(samples.map((s) => s.rps)),
      ratio: median(rounds.map((round) => round[index]!.rps / round[0]!.rps)),
      p50: median(samples.map((s) => s.p50)),
      p99: median(samples.map((s) => s.p99)),
      errors: samples.reduce((sum, s) => sum + s.errors, 0),
      serverCpuUs: median(samples.map((s) => s.serverCpuUs)),
      postgresCpuUs: median(samples.map((s) => s.postgresCpuUs)),
    });
  });
}
process.stderr.write('\n');
app.stop();
baseline.stop();

const lines = [
  '| scenario | connections | req/s (median) | vs baseline (median of rounds) | p50 ms | p99 ms | errors | server CPU µs/req | PostgreSQL CPU µs/req |',
  '|---|---|---|---|---|---|---|---|---|',
];
const us = (value: number): string => (canMeasureCpu() ? value.toFixed(0) : 'n/a');
let failed = false;
for (const row of rows) {
  if (!row.scenario.startsWith('baseline') && row.ratio < 0.5) failed = true;
  lines.push(
    `| ${row.scenario} | ${row.connections} | ${row.rps.toFixed(0)} | ${row.ratio.toFixed(2)}x | ${row.p50} | ${row.p99} | ${row.errors} | ${us(row.serverCpuUs)} | ${us(row.postgresCpuUs)} |`,
  );
}
console.log(`MCP tools/call benchmark: ${RUNS} rounds x ${DURATION}s per cell, medians; node ${process.version}`);
console.log(lines.join('\n'));
console.log(failed ? 'TARGET MISSED: a read tool is below 0.5x the baseline' : 'target met: every read tool >= 0.5x the baseline');
