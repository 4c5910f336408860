/**
 * Delivery benchmark: cached GET /consume?id=…&env=prod for a 1.3 KB and a 50 KB
 * component under `wrk -t1 -c50 --latency` (its own process), in two deployments
 * (the `pnpm start` stack on PGlite, and the delivery API alone on PostgreSQL as
 * deployed), each against a bare node:http server answering with the identical
 * headers and body bytes. Rounds alternate: each round measures, per payload, the
 * baseline then a deployment, for each deployment; a cell's ratio is the median of
 * its per-round ratios (the shared machine drifts over minutes). Each round
 * starts with the requests a deployed instance also gets (health check,
 * readiness probe, metrics scrape). Server CPU per response comes from /proc.
 * Then the cache-miss path (caching off, PostgreSQL).
 *
 * Run (from the repo root):  pnpm --filter @cp/delivery-api bench
 * Env: BENCH_ROUNDS (8), BENCH_DURATION (s per cell, 8), BENCH_QUICK=1 (2 rounds
 * of 3 s, no misses), BENCH_DEPLOYMENTS (stack,postgres), BENCH_MISSES=0,
 * BENCH_POSTGRES_URL (postgresql://postgres@127.0.0.1:5432/postgres),
 * BENCH_CPU_PROF_DIR (V8 profiles of the serving phase of every server).
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNode } from './child.js';
import { type Deployment, profileArgs, repoPath, TSX } from './deployment.js';
import { startPostgresDeployment } from './postgres-deployment.js';
import { cpuStopwatch } from './process-cpu.js';
import { cropProfile } from './profile-window.js';
import { recordResponse } from './record.js';
import { type Cell, missTable, resultTable } from './report.js';
import { startStackDeployment } from './stack-deployment.js';
import { ensureWrk } from '../ensure-wrk.js';
import { runWrk } from './wrk.js';

const quick = process.env.BENCH_QUICK === '1';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (quick ? 2 : 8));
const SECONDS = Number(process.env.BENCH_DURATION ?? (quick ? 3 : 8));
const CONNECTIONS = 50;
const DEPLOYMENTS = (process.env.BENCH_DEPLOYMENTS ?? 'stack,postgres').split(',');
const MISSES = process.env.BENCH_MISSES !== undefined ? process.env.BENCH_MISSES !== '0' : !quick && DEPLOYMENTS.includes('postgres');
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const PROFILE_DIR = process.env.BENCH_CPU_PROF_DIR;
const PAYLOADS = ['small', 'large'] as const;
const PAYLOAD_NAMES = { small: '1.3 KB component', large: '50 KB component' } as const;

const log = (line: string) => process.stderr.write(`${line}\n`);
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

ensureWrk('bench/delivery');
const deployments: Deployment[] = [];
const stops: Array<() => Promise<void>> = [];
let startUncached: (() => Promise<Deployment>) | null = null;
const stopAll = async () => {
  for (const stop of stops.reverse()) await stop().catch((error: unknown) => log(`stopping: ${String(error)}`));
};
process.once('SIGINT', () => void stopAll().finally(() => process.exit(130)));

try {
  if (DEPLOYMENTS.includes('stack')) {
    log('starting the pnpm start stack…');
    const stack = await startStackDeployment({ profileDir: PROFILE_DIR });
    stops.push(() => stack.stop());
    deployments.push(stack);
  }
  if (DEPLOYMENTS.includes('postgres')) {
    log('starting the delivery API alone on PostgreSQL…');
    const alone = await startPostgresDeployment({ serverUrl: POSTGRES_URL, profileDir: PROFILE_DIR });
    stops.push(() => alone.stop());
    deployments.push(alone);
    startUncached = alone.startUncached;
  }

  // The baseline answers every deployment's URLs with what that deployment sent for them.
  const recordings = Object.fromEntries(
    await Promise.all(deployments.flatMap((d) => PAYLOADS.map(async (p) => [d.paths[p], await recordResponse(d.url + d.paths[p])] as const))),
  );
  const recordingDir = await mkdtemp(join(tmpdir(), 'cp-bench-bare-'));
  stops.push(() => rm(recordingDir, { recursive: true, force: true }));
  const recordingFile = join(recordingDir, 'responses.json');
  writeFileSync(recordingFile, JSON.stringify(recordings));
  const bare = await startNode('bare', [...profileArgs(PROFILE_DIR, 'bare'), ...TSX, repoPath('bench/delivery/bare-server.ts'), recordingFile], {
    cwd: repoPath('apps/delivery-api'),
    env: process.env,
  });
  stops.push(() => bare.stop());
  const bareUrl = (JSON.parse(bare.firstLine) as { url: string }).url;
  const bodyBytes = (path: string) => Buffer.from(recordings[path]!.body, 'base64').length;

  const measure = async (url: string, serverPid: number, databasePids: () => Promise<number[]>, seconds: number, connections = CONNECTIONS): Promise<Cell> => {
    const server = await cpuStopwatch(async () => [serverPid]);
    const database = await cpuStopwatch(databasePids);
    const result = await runWrk(url, { connections, seconds });
    const serverMicros = await server.stop();
    const databaseMicros = await database.stop();
    const responses = Math.max(1, result.requests);
    return { ...result, cpuPerResponse: serverMicros / responses, databaseCpuPerResponse: databaseMicros / responses };
  };
  const none = async () => [];
  // What a deployed instance also answers: the container health check (GET /, every 15 s),
  // the orchestrator's readiness probe and a Prometheus scrape.
  const operationsTraffic = async (d: Deployment) => {
    for (const path of ['/', '/ready', '/metrics']) await fetch(d.url + path).then((res) => res.arrayBuffer());
  };

  const servingFrom = monotonicMicros();
  log('warming up…');
  for (const d of deployments) {
    await operationsTraffic(d);
    for (const p of PAYLOADS) {
      await measure(bareUrl + d.paths[p], bare.pid, none, 2);
      await measure(d.url + d.paths[p], d.serverPid, d.databasePids, 2);
    }
  }
  const cells = new Map<string, { bare: Cell[]; served: Cell[] }>();
  const slot = (d: Deployment, p: string) => {
    const key = `${d.name}\u0000${p}`;
    if (!cells.has(key)) cells.set(key, { bare: [], served: [] });
    return cells.get(key)!;
  };
  for (let round = 1; round <= ROUNDS; round++) {
    for (const d of deployments) await operationsTraffic(d);
    for (const p of PAYLOADS) {
      for (const d of deployments) {
        const s = slot(d, p);
        s.bare.push(await measure(bareUrl + d.paths[p], bare.pid, none, SECONDS));
        s.served.push(await measure(d.url + d.paths[p], d.serverPid, d.databasePids, SECONDS));
        log(`round ${round}/${ROUNDS} ${PAYLOAD_NAMES[p]} ${d.name}: bare ${s.bare.at(-1)!.rps.toFixed(0)}, served ${s.served.at(-1)!.rps.toFixed(0)} req/s`);
      }
    }
  }
  const servingTo = monotonicMicros();

  const lines = [
    `Node ${process.version}, wrk -t1 -c${CONNECTIONS} --latency, ${ROUNDS} rounds of ${SECONDS} s per cell; ratio: median of per-round ratios [lowest-highest].`,
    '',
    ...resultTable(
      deployments.flatMap((d) => PAYLOADS.map((p) => ({ deployment: d.name, payload: PAYLOAD_NAMES[p], bytes: bodyBytes(d.paths[p]), ...slot(d, p) }))),
    ),
  ];

  if (MISSES && startUncached) {
    log('cache misses (caching off)…');
    const uncached = await startUncached();
    const misses = [];
    for (const p of PAYLOADS) {
      for (const connections of [1, CONNECTIONS]) {
        await measure(uncached.url + uncached.paths[p], uncached.serverPid, uncached.databasePids, 2, connections);
        const runs: Cell[] = [];
        for (let run = 0; run < 3; run++) runs.push(await measure(uncached.url + uncached.paths[p], uncached.serverPid, uncached.databasePids, Math.min(SECONDS, 5), connections));
        misses.push({ payload: PAYLOAD_NAMES[p], connections, runs });
      }
    }
    lines.push('', ...missTable(misses));
  }

  const report = lines.join('\n');
  process.stdout.write(`${report}\n`);
  const resultsDir = repoPath('bench/results/');
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, `delivery-${new Date().toISOString().replaceAll(':', '-')}.md`), `${report}\n`);

  await stopAll();
  stops.length = 0;
  if (PROFILE_DIR) cropProfiles(PROFILE_DIR, servingFrom, servingTo);
} finally {
  await stopAll();
}

/** Profiles are written at exit: keep the serving phase (warm-up and rounds) of each, beside it as `*.serving.cpuprofile`. */
function cropProfiles(dir: string, from: number, to: number): void {
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!name.endsWith('.cpuprofile') || name.endsWith('.serving.cpuprofile')) continue;
    const cropped = cropProfile(JSON.parse(readFileSync(join(dir, name), 'utf8')), from, to);
    if (cropped.samples.length === 0) continue;
    const out = join(dir, name.replace(/\.cpuprofile$/, '.serving.cpuprofile'));
    writeFileSync(out, JSON.stringify(cropped));
    log(`profile of the serving phase: ${out}`);
  }
}
