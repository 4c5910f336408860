/**
 * Delivery benchmark: requests per second and p50/p99 latency of cached
 * GET /consume for a 1.3 KB and a 50 KB component at 50 connections, against a
 * bare node:http server sending the same pre-serialized bytes, measured in the
 * same run (alternating, median of RUNS runs); plus the cache-miss path.
 *
 * Run (from the repo root):  pnpm --filter @cp/delivery-api bench
 * Env: BENCH_DURATION (s, default 5), BENCH_RUNS (default 5), DATABASE_URL
 * (PostgreSQL for the miss path; else in-memory PGlite).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { autocannon } from './resolve.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const CONNECTIONS = 50;

interface Child<T> {
  ready: T;
  /** The child's CPU time so far (user + system), in µs: what it spent, whatever else the machine was doing. */
  cpu(): Promise<number>;
  stop(): void;
}

function startChild<T>(script: string, args: string[] = []): Promise<Child<T>> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(new URL(script, import.meta.url)), ...args], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: process.env,
  });
  const cpu = () =>
    new Promise<number>((resolve) => {
      child.once('message', (usage: NodeJS.CpuUsage) => resolve(usage.user + usage.system));
      child.send('cpu');
    });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      resolve({ ready: JSON.parse(line) as T, cpu, stop: () => child.kill('SIGTERM') });
    });
  });
}

/** The raw response body (no decompression), to hand the bare server the very same bytes. */
function fetchRaw(url: string, headers: Record<string, string>): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => (res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`${url}: ${res.statusCode}`))));
    })
      .on('error', reject)
      .end();
  });
}

interface Sample {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Server CPU per request, µs. */
  cpuPerRequest: number;
}

async function measure(
  server: Pick<Child<unknown>, 'cpu'>,
  url: string,
  connections: number,
  headers: Record<string, string> = {},
  duration = DURATION,
): Promise<Sample> {
  const before = await server.cpu();
  const result = await autocannon({ url, connections, duration, headers });
  const spent = (await server.cpu()) - before;
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    cpuPerRequest: spent / Math.max(1, result.requests.total),
  };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

interface Ready {
  cachedUrl: string;
  uncachedUrl: string;
  database: string;
  paths: { small: string; large: string };
}

const delivery = await startChild<Ready>('./delivery-server.ts');
const { cachedUrl, uncachedUrl, paths, database } = delivery.ready;

// The bare server gets the delivery API's own bodies, byte for byte.
const dir = mkdtempSync(join(tmpdir(), 'bench-delivery-'));
const bodies: Record<string, { file: string; encoding: string | null; bytes: number }> = {};
for (const [name, path, encoding] of [['small', paths.small, null], ['large', paths.large, null], ['large-br', paths.large, 'br']] as const) {
  const body = await fetchRaw(cachedUrl + path, encoding ? { 'accept-encoding': encoding } : {});
  const file = join(dir, name);
  writeFileSync(file, body);
  bodies[name] = { file, encoding, bytes: body.length };
}
const bare = await startChild<{ url: string }>('./bare-server.ts', [JSON.stringify(bodies), 'bare']);
const expressBaseline = await startChild<{ url: string }>('./bare-server.ts', [JSON.stringify(bodies), 'express']);

const scenarios = [
  { name: '1.3 KB component', bare: `${bare.ready.url}/small`, delivery: cachedUrl + paths.small, headers: {}, bytes: bodies.small!.bytes },
  { name: '50 KB component', bare: `${bare.ready.url}/large`, delivery: cachedUrl + paths.large, headers: {}, bytes: bodies.large!.bytes },
  {
    name: '50 KB component, brotli',
    bare: `${bare.ready.url}/large-br`,
    delivery: cachedUrl + paths.large,
    headers: { 'accept-encoding': 'br' },
    bytes: bodies['large-br']!.bytes,
  },
];

// Warm-up: JIT on both sides, connection setup.
for (const scenario of scenarios) {
  await measure(bare, scenario.bare, CONNECTIONS, scenario.headers, 2);
  await measure(delivery, scenario.delivery, CONNECTIONS, scenario.headers, 2);
}

const samples = new Map<string, { bare: Sample[]; delivery: Sample[] }>(scenarios.map((s) => [s.name, { bare: [], delivery: [] }]));
// Express 5 serving the same 1.3 KB bytes: why the hot path does not go through Express.
const expressSamples: Sample[] = [];
await measure(expressBaseline, `${expressBaseline.ready.url}/small`, CONNECTIONS, {}, 2);
for (let run = 0; run < RUNS; run++) {
  for (const scenario of scenarios) {
    const slot = samples.get(scenario.name)!;
    // Alternate who goes first, so drift on a shared machine hits both alike.
    const order = run % 2 === 0 ? (['bare', 'delivery'] as const) : (['delivery', 'bare'] as const);
    for (const who of order) slot[who].push(await measure(who === 'bare' ? bare : delivery, scenario[who], CONNECTIONS, scenario.headers));
    process.stderr.write(`run ${run + 1}/${RUNS} ${scenario.name}: bare ${slot.bare.at(-1)!.rps.toFixed(0)} delivery ${slot.delivery.at(-1)!.rps.toFixed(0)} req/s\n`);
  }
  expressSamples.push(await measure(expressBaseline, `${expressBaseline.ready.url}/small`, CONNECTIONS));
}

// Cache misses: caching off, so every request reads the database and the object store,
// parses the HTML, serializes and compresses (concurrent misses of one key share one load).
const misses: { name: string; connections: number; sample: Sample }[] = [];
for (const [name, path] of [['1.3 KB component', paths.small], ['50 KB component', paths.large]] as const) {
  for (const connections of [1, CONNECTIONS]) {
    await measure(delivery, uncachedUrl + path, connections, {}, 2);
    const runs: Sample[] = [];
    for (let run = 0; run < 3; run++) runs.push(await measure(delivery, uncachedUrl + path, connections));
    misses.push({ name, connections, sample: pick(runs) });
  }
}

function pick(runs: Sample[]): Sample {
  return {
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    cpuPerRequest: median(runs.map((r) => r.cpuPerRequest)),
  };
}

const lines = [
  `Node ${process.version}, ${CONNECTIONS} connections, ${RUNS} runs of ${DURATION} s per cell (median), database for misses: ${database}.`,
  '',
  '| scenario | body bytes | bare req/s | delivery req/s | ratio | bare p50/p99 ms | delivery p50/p99 ms | server CPU µs/req bare / delivery | errors |',
  '|---|---|---|---|---|---|---|---|---|',
];
for (const scenario of scenarios) {
  const slot = samples.get(scenario.name)!;
  const b = pick(slot.bare);
  const d = pick(slot.delivery);
  // The ratio of medians, and the median of per-run ratios (each run measured both back to back).
  const ratios = slot.bare.map((s, i) => slot.delivery[i]!.rps / s.rps);
  lines.push(
    `| ${scenario.name} | ${scenario.bytes} | ${b.rps.toFixed(0)} | ${d.rps.toFixed(0)} | ${(d.rps / b.rps).toFixed(2)}x (per-run median ${median(ratios).toFixed(2)}x) | ${b.p50}/${b.p99} | ${d.p50}/${d.p99} | ${b.cpuPerRequest.toFixed(1)} / ${d.cpuPerRequest.toFixed(1)} | ${b.errors + d.errors} |`,
  );
}
{
  const b = pick(samples.get(scenarios[0]!.name)!.bare);
  const e = pick(expressSamples);
  lines.push(
    `| Express 5 baseline, same 1.3 KB bytes | ${scenarios[0]!.bytes} | ${b.rps.toFixed(0)} | ${e.rps.toFixed(0)} (Express) | ${(e.rps / b.rps).toFixed(2)}x | ${b.p50}/${b.p99} | ${e.p50}/${e.p99} | ${b.cpuPerRequest.toFixed(1)} / ${e.cpuPerRequest.toFixed(1)} | ${e.errors} |`,
  );
}
lines.push('', '| cache miss (caching off) | connections | req/s | p50 ms | p99 ms | server CPU µs/req | errors |', '|---|---|---|---|---|---|---|');
for (const miss of misses) {
  lines.push(
    `| ${miss.name} | ${miss.connections} | ${miss.sample.rps.toFixed(0)} | ${miss.sample.p50} | ${miss.sample.p99} | ${miss.sample.cpuPerRequest.toFixed(0)} | ${miss.sample.errors} |`,
  );
}
const report = lines.join('\n');
process.stdout.write(`${report}\n`);
const resultsDir = fileURLToPath(new URL('../results/', import.meta.url));
mkdirSync(resultsDir, { recursive: true });
writeFileSync(join(resultsDir, `delivery-${new Date().toISOString().replaceAll(':', '-')}.md`), `${report}\n`);

bare.stop();
expressBaseline.stop();
delivery.stop();
