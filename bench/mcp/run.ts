/**
 * MCP tool-call benchmark: throughput and p50/p99 latency of tools/call for
 * get_component (with and without content) and list_components (an organization
 * of 10,000 components), at 1 and 20 concurrent connections, against the SDK's
 * minimal stateless echo server measured in the same run. Median of RUNS runs.
 *
 * Run (from the repo root):  pnpm --filter @cp/mcp-server bench
 * Env: BENCH_DURATION (s, default 5), BENCH_RUNS (default 3), BENCH_COMPONENTS
 * (default 10000).
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startBaseline } from './baseline-server.js';
import { autocannon } from './resolve.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const CONNECTIONS = [1, 20];

interface Ready {
  url: string;
  token: string;
  organizationId: string;
  componentId: string;
  components: number;
}

function startAppServer(): Promise<{ ready: Ready; stop(): void }> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(new URL('./app-server.ts', import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`app server exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      resolve({ ready: JSON.parse(line) as Ready, stop: () => child.kill('SIGTERM') });
    });
  });
}

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function measure(url: string, body: object, connections: number, headers: Record<string, string>): Promise<Sample> {
  const result = await autocannon({
    url,
    method: 'POST',
    connections,
    duration: DURATION,
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', ...headers },
    body: JSON.stringify(body),
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const call = (name: string, args: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });

const app = await startAppServer();
const baseline = await startBaseline();
const auth = { authorization: `Bearer ${app.ready.token}` };
const scenarios: { name: string; url: string; body: object; headers: Record<string, string> }[] = [
  { name: 'baseline echo (SDK minimal server)', url: baseline.url, body: call('echo', { message: 'hello' }), headers: {} },
  { name: 'get_component (content)', url: app.ready.url, body: call('get_component', { componentId: app.ready.componentId }), headers: auth },
  { name: 'get_component (no content)', url: app.ready.url, body: call('get_component', { componentId: app.ready.componentId, includeContent: false }), headers: auth },
  { name: `list_components (org of ${app.ready.components}, limit 50)`, url: app.ready.url, body: call('list_components', { organizationId: app.ready.organizationId }), headers: auth },
];

// Warm-up: JIT, JWKS fetch, connection pools.
for (const scenario of scenarios) await measure(scenario.url, scenario.body, 4, scenario.headers);

const rows: { scenario: string; connections: number; rps: number; p50: number; p99: number; errors: number }[] = [];
for (const connections of CONNECTIONS) {
  for (const scenario of scenarios) {
    const samples: Sample[] = [];
    for (let run = 0; run < RUNS; run += 1) samples.push(await measure(scenario.url, scenario.body, connections, scenario.headers));
    rows.push({
      scenario: scenario.name,
      connections,
      rps: median(samples.map((s) => s.rps)),
      p50: median(samples.map((s) => s.p50)),
      p99: median(samples.map((s) => s.p99)),
      errors: samples.reduce((sum, s) => sum + s.errors, 0),
    });
    process.stderr.write(`.`);
  }
}
process.stderr.write('\n');
app.stop();
await baseline.close();

const lines = ['| scenario | connections | req/s (median) | vs baseline | p50 ms | p99 ms | errors |', '|---|---|---|---|---|---|---|'];
let failed = false;
for (const row of rows) {
  const base = rows.find((r) => r.connections === row.connections && r.scenario.startsWith('baseline'))!;
  const ratio = row.rps / base.rps;
  if (!row.scenario.startsWith('baseline') && ratio < 0.5) failed = true;
  lines.push(`| ${row.scenario} | ${row.connections} | ${row.rps.toFixed(0)} | ${ratio.toFixed(2)}x | ${row.p50} | ${row.p99} | ${row.errors} |`);
}
console.log(`MCP tools/call benchmark: ${RUNS} runs x ${DURATION}s per cell, median; node ${process.version}`);
console.log(lines.join('\n'));
console.log(failed ? 'TARGET MISSED: a read tool is below 0.5x the baseline' : 'target met: every read tool >= 0.5x the baseline');
