/**
 * Usage ingest benchmark, on the delivery API alone on PostgreSQL as deployed (bench/delivery's
 * deployment, with DELIVERY_TRUST_PROXY=loopback so that wrk's X-Forwarded-For spreads the load
 * over client networks as pages behind a proxy do; the budgets keep their defaults).
 *
 * 1. Ingest: POST /v1/events at BENCH_RATE batches/s of BENCH_BATCH events (default 250 x 20 =
 *    5,000 events/s) for BENCH_INGEST_SECONDS (60), paced by wrk's `delay()` in its own process.
 *    Meanwhile a marker batch every 5 s, from this process, is timed from its 204 until its
 *    minute rollup is visible. After the run: raw rows == minute-rollup count == events the
 *    server accepted (its metric), and the events wrk saw answered 204.
 * 2. The hot path: cached GET /consume under `wrk -t1 -c50`, alone and while the ingest runs at
 *    the same rate, in alternating rounds (BENCH_ROUNDS x BENCH_DURATION s); the ratio is the
 *    median of per-round ratios. Server CPU per /consume response from /proc, and what the
 *    ingest adds per event.
 *
 * Run (from the repo root):  pnpm --filter @cp/delivery-api bench:usage
 * Env: BENCH_INGEST_SECONDS (60), BENCH_ROUNDS (4), BENCH_DURATION (8), BENCH_RATE (250),
 * BENCH_BATCH (20), BENCH_POSTGRES_URL (postgresql://postgres@127.0.0.1:5432/postgres).
 */
import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureWrk } from '../ensure-wrk.js';
import { startPostgresDeployment } from '../delivery/postgres-deployment.js';
import { cpuStopwatch } from '../delivery/process-cpu.js';
import { pg } from '../delivery/resolve.js';
import { runWrk, type WrkResult } from '../delivery/wrk.js';
import { ingestScript } from './ingest-script.js';

const INGEST_SECONDS = Number(process.env.BENCH_INGEST_SECONDS ?? 60);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const SECONDS = Number(process.env.BENCH_DURATION ?? 8);
const RATE = Number(process.env.BENCH_RATE ?? 250);
const BATCH = Number(process.env.BENCH_BATCH ?? 20);
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const CONSUME_CONNECTIONS = 50;
const INGEST_CONNECTIONS = 16;
const NETWORKS = 32;
const MARKER_EVERY_MS = 5000;

const log = (line: string) => process.stderr.write(`${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

ensureWrk('bench/usage');
const stops: Array<() => Promise<void>> = [];
const stopAll = async () => {
  for (const stop of stops.reverse()) await stop().catch((error: unknown) => log(`stopping: ${String(error)}`));
};
process.once('SIGINT', () => void stopAll().finally(() => process.exit(130)));

try {
  log('starting the delivery API alone on PostgreSQL…');
  const deployment = await startPostgresDeployment({ serverUrl: POSTGRES_URL, profileDir: process.env.BENCH_CPU_PROF_DIR, env: { DELIVERY_TRUST_PROXY: 'loopback' } });
  stops.push(() => deployment.stop());
  const db = new pg.Client({ connectionString: deployment.databaseUrl });
  await db.connect();
  stops.push(() => db.end());

  const consumeUrl = deployment.url + deployment.paths.small;
  const componentId = new URL(consumeUrl).searchParams.get('id')!;
  const consumed = (await (await fetch(consumeUrl)).json()) as { item: { consume_variant: { id: string }[] } };
  const variantId = consumed.item.consume_variant[0]!.id;
  const event = (seq: number, over: Record<string, unknown> = {}) => ({
    type: 'load', component: componentId, env: 'prod', variant: variantId, isolation: 'iframe', sdk: '1.0.0',
    host: 'shop.example.com', session: 'BenchBenchBenchBench01', seq, rate: 1, name: 'consume', ms: 35 + seq, cache: false, ...over,
  });
  const body = JSON.stringify({ v: 1, events: Array.from({ length: BATCH }, (_, i) => event(i, i % 5 === 4 ? { type: 'render', name: 'ready', cache: undefined } : {})) });

  const scriptDir = await mkdtemp(join(tmpdir(), 'cp-bench-usage-'));
  stops.push(() => rm(scriptDir, { recursive: true, force: true }));
  const script = join(scriptDir, 'ingest.lua');
  writeFileSync(script, ingestScript({ body, rate: RATE, networks: NETWORKS }));
  const ingest = (seconds: number) => runWrk(deployment.url + '/v1/events', { connections: INGEST_CONNECTIONS, seconds, script });

  const metric = async (name: string, label: string): Promise<number> => {
    const text = await (await fetch(`${deployment.url}/metrics`)).text();
    const match = new RegExp(`^${name}\\{[^}]*${label}[^}]*\\} ([\\d.e+]+)$`, 'm').exec(text);
    return match ? Number(match[1]) : 0;
  };
  const counts = async () => {
    const one = async (text: string) => Number((await db.query<{ n: string }>(text, [componentId])).rows[0]!.n);
    return {
      raw: await one('SELECT count(*) AS n FROM "usage"."events" WHERE "component_id" = $1'),
      minutes: await one(`SELECT coalesce(sum("count"), 0) AS n FROM "usage"."minutes" WHERE "component_id" = $1 AND "type" <> 'served'`),
    };
  };

  /** One marker: POSTed, then polled in the minute rollups; ms from the 204 until visible. */
  const marker = async (n: number): Promise<number> => {
    const name = `bench-marker-${n}`;
    const res = await fetch(`${deployment.url}/v1/events`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain;charset=UTF-8', 'X-Forwarded-For': '10.78.0.1' },
      body: JSON.stringify({ v: 1, events: [event(0, { type: 'interaction', name, ms: undefined, cache: undefined })] }),
    });
    if (res.status !== 204) throw new Error(`marker answered ${res.status}: ${await res.text()}`);
    const answered = performance.now();
    for (;;) {
      const { rows } = await db.query<{ n: string }>(
        `SELECT count(*) AS n FROM "usage"."minutes" WHERE "component_id" = $1 AND "type" = 'interaction' AND "name" = $2`,
        [componentId, name],
      );
      if (Number(rows[0]!.n) > 0) return performance.now() - answered;
      if (performance.now() - answered > 30_000) throw new Error(`marker ${name} not visible after 30 s`);
      await sleep(20);
    }
  };

  // 1. Ingest alone.
  log(`ingest: ${RATE} batches/s of ${BATCH} events for ${INGEST_SECONDS} s…`);
  await ingest(2);
  const settle = async () => {
    // Everything accepted is written within a flush or two: wait until the buffer is empty.
    for (let i = 0; i < 100 && (await metric('delivery_usage_buffered_rows', '')) > 0; i++) await sleep(100);
    await sleep(1500);
  };
  await settle();
  const acceptedBefore = await metric('delivery_usage_events_total', 'result="accepted"');
  const writtenBefore = await counts();
  const server = await cpuStopwatch(async () => [deployment.serverPid]);
  const database = await cpuStopwatch(deployment.databasePids);
  const visibility: number[] = [];
  let running = true;
  const markers = (async () => {
    let n = 0;
    await sleep(MARKER_EVERY_MS / 2);
    while (running) {
      visibility.push(await marker(++n));
      await sleep(MARKER_EVERY_MS);
    }
  })();
  const load = await ingest(INGEST_SECONDS);
  running = false;
  await markers;
  const serverMicros = await server.stop();
  const databaseMicros = await database.stop();
  await settle();
  const accepted = (await metric('delivery_usage_events_total', 'result="accepted"')) - acceptedBefore;
  const after = await counts();
  const written = { raw: after.raw - writtenBefore.raw, minutes: after.minutes - writtenBefore.minutes };
  const dropped = await metric('delivery_usage_rows_dropped_total', 'kind="events"');
  const flushes = await metric('delivery_usage_flush_duration_seconds_count', 'kind="events",outcome="ok"');
  const flushSeconds = await metric('delivery_usage_flush_duration_seconds_sum', 'kind="events",outcome="ok"');
  const sentOk = (load.requests - load.errors) * BATCH;

  // 2. The hot path, with and without the ingest.
  const consume = async (): Promise<WrkResult & { cpuPerResponse: number }> => {
    const cpu = await cpuStopwatch(async () => [deployment.serverPid]);
    const result = await runWrk(consumeUrl, { connections: CONSUME_CONNECTIONS, seconds: SECONDS });
    return { ...result, cpuPerResponse: (await cpu.stop()) / Math.max(1, result.requests) };
  };
  log('hot path: cached /consume alone and while ingesting…');
  await consume();
  const alone: Awaited<ReturnType<typeof consume>>[] = [];
  const beside: Awaited<ReturnType<typeof consume>>[] = [];
  const besideIngest: WrkResult[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    alone.push(await consume());
    const background = ingest(SECONDS + 2);
    await sleep(1000);
    beside.push(await consume());
    besideIngest.push(await background);
    log(`round ${round}/${ROUNDS}: /consume alone ${alone.at(-1)!.rps.toFixed(0)} req/s, while ingesting ${beside.at(-1)!.rps.toFixed(0)} req/s`);
  }
  const ratios = alone.map((a, i) => beside[i]!.rps / a.rps);
  const cpuAlone = median(alone.map((r) => r.cpuPerResponse));
  const cpuBeside = median(beside.map((r) => r.cpuPerResponse));
  // The hot path's own cost while ingesting: the server's CPU less what the ingest took (its events x its cost per event, from phase 1).
  const ingestMicrosPerEvent = serverMicros / Math.max(1, accepted);
  const cpuNet = median(
    beside.map((r, i) => Math.max(0, r.cpuPerResponse * r.requests - besideIngest[i]!.rps * SECONDS * BATCH * ingestMicrosPerEvent) / Math.max(1, r.requests)),
  );

  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const lines = [
    `Node ${process.version}; ingest: wrk -t1 -c${INGEST_CONNECTIONS} paced at ${RATE} req/s x ${BATCH} events over ${NETWORKS} client networks; /consume: wrk -t1 -c${CONSUME_CONNECTIONS}.`,
    '',
    `| ingest, ${INGEST_SECONDS} s | figure |`,
    '| --- | --- |',
    `| batches answered (204) | ${load.requests - load.errors} (${((load.requests - load.errors) / INGEST_SECONDS).toFixed(0)}/s), other answers or socket errors: ${load.errors} |`,
    `| POST latency p50 / p99 | ${ms(load.p50)} / ${ms(load.p99)} |`,
    `| marker visible in usage.minutes after its 204: median / max (${visibility.length} markers) | ${ms(median(visibility))} / ${ms(Math.max(...visibility))} |`,
    `| events wrk saw accepted / the server accepted (metric) / raw rows / minute-rollup count | ${sentOk} / ${accepted} / ${written.raw} / ${written.minutes} (markers included in the last three: ${visibility.length}) |`,
    `| rows dropped | ${dropped} |`,
    `| writes (one append each), mean time of one | ${flushes}, ${ms((1000 * flushSeconds) / Math.max(1, flushes))} |`,
    `| server CPU per event / database CPU per event | ${(serverMicros / Math.max(1, accepted)).toFixed(1)} µs / ${(databaseMicros / Math.max(1, accepted)).toFixed(1)} µs |`,
    '',
    `| cached /consume, ${ROUNDS} rounds x ${SECONDS} s | alone | while ingesting |`,
    '| --- | --- | --- |',
    `| req/s (median) | ${median(alone.map((r) => r.rps)).toFixed(0)} | ${median(beside.map((r) => r.rps)).toFixed(0)} |`,
    `| p50 / p99 | ${ms(median(alone.map((r) => r.p50)))} / ${ms(median(alone.map((r) => r.p99)))} | ${ms(median(beside.map((r) => r.p50)))} / ${ms(median(beside.map((r) => r.p99)))} |`,
    `| server CPU per /consume response (median; while ingesting, the ingest's CPU included) | ${cpuAlone.toFixed(1)} µs | ${cpuBeside.toFixed(1)} µs |`,
    `| the same, net of the ingest's CPU (its events x its µs per event above) | ${cpuAlone.toFixed(1)} µs | ${cpuNet.toFixed(1)} µs |`,
    `| ingest beside it: batches/s, POST p99 (median) | | ${median(besideIngest.map((r) => r.rps)).toFixed(0)}, ${ms(median(besideIngest.map((r) => r.p99)))} |`,
    '',
    `Throughput while ingesting / alone: median of per-round ratios ${median(ratios).toFixed(3)} [${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}].`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
} finally {
  await stopAll();
}
