/**
 * Instructions per cached /consume response, to compare two versions of the code
 * on a shared machine where req/s and CPU time move with other people's load:
 * the delivery API alone on PostgreSQL (src/main.ts as deployed, as run.ts starts
 * it) and the bare node:http baseline replaying its responses, each under
 * callgrind. Per server and payload: the operations traffic (as run.ts sends
 * it), a warm-up, then windows of a fixed number of keep-alive requests with
 * callgrind's instrumentation on; a window's figure is its user-space
 * instructions (every thread: JIT code, GC, libuv) divided by its responses;
 * the cache TTL is an hour so that no reload falls in a window.
 * The kernel's side (the socket write) is not counted.
 *
 * Run (from the repo root; valgrind from Debian):
 *   node --conditions=source --import tsx bench/delivery/instructions.ts   (from apps/delivery-api)
 * Env: BENCH_REQUESTS (per window, 5000), BENCH_WINDOWS (4), BENCH_WARMUP (requests, 20000),
 * BENCH_POSTGRES_URL.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNode } from './child.js';
import { repoPath, TSX } from './deployment.js';
import { startPostgresDeployment } from './postgres-deployment.js';
import { recordResponse } from './record.js';
import { median } from './report.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 5000);
const WINDOWS = Number(process.env.BENCH_WINDOWS ?? 4);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20_000);
const CONNECTIONS = 4;
const POSTGRES_URL = process.env.BENCH_POSTGRES_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const log = (line: string) => process.stderr.write(`${line}\n`);

const outDir = mkdtempSync(join(tmpdir(), 'cp-bench-callgrind-'));
const callgrind = (name: string) => ['valgrind', '--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${join(outDir, name)}.%p`];

/** `count` GET requests over `connections` keep-alive connections, one at a time on each (as wrk sends them: Host only). */
function send(url: string, count: number, connections = CONNECTIONS): Promise<number> {
  const target = new URL(url);
  const request = Buffer.from(`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\n\r\n`);
  let sent = 0;
  let failed = 0;
  const one = () =>
    new Promise<void>((resolve, reject) => {
      const socket = connect(Number(target.port), target.hostname);
      let pending = Buffer.alloc(0);
      const next = () => {
        if (sent >= count) return void socket.end(resolve);
        sent += 1;
        socket.write(request);
      };
      socket.on('connect', next).on('error', reject);
      socket.on('data', (chunk: Buffer) => {
        pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
        for (;;) {
          const end = pending.indexOf('\r\n\r\n');
          if (end === -1) return;
          const head = pending.subarray(0, end).toString('latin1');
          const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0);
          if (pending.length < end + 4 + length) return;
          if (!head.startsWith('HTTP/1.1 200')) failed += 1;
          pending = pending.subarray(end + 4 + length);
          next();
        }
      });
    });
  return Promise.all(Array.from({ length: connections }, one)).then(() => failed);
}

/** Instructions per response over `windows` windows of `requests` requests (callgrind on only meanwhile). */
async function countPerResponse(name: string, pid: number, url: string): Promise<number[]> {
  const perResponse: number[] = [];
  for (let window = 0; window < WINDOWS; window++) {
    execFileSync('callgrind_control', ['--instr=on', String(pid)], { stdio: 'ignore' });
    execFileSync('callgrind_control', ['--zero', String(pid)], { stdio: 'ignore' });
    const failed = await send(url, REQUESTS);
    if (failed > 0) throw new Error(`${url}: ${failed} responses were not 200`);
    execFileSync('callgrind_control', ['--dump', String(pid)], { stdio: 'ignore' });
    execFileSync('callgrind_control', ['--instr=off', String(pid)], { stdio: 'ignore' });
    const dump = readdirSync(outDir)
      .filter((file) => file.startsWith(`${name}.${pid}.`))
      .map((file) => join(outDir, file))
      .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0]!;
    const totals = /^totals: (\d+)/m.exec(readFileSync(dump, 'utf8'));
    if (!totals) throw new Error(`no totals in ${dump}`);
    perResponse.push(Number(totals[1]) / REQUESTS);
  }
  return perResponse;
}

const stops: Array<() => Promise<void>> = [];
try {
  log('starting the delivery API alone on PostgreSQL under callgrind (slow)…');
  // Under callgrind a window lasts minutes: a TTL of an hour keeps every request a hit (no reload is
  // counted), and the first load may take longer than a deployment's timeout allows.
  const deployment = await startPostgresDeployment({
    serverUrl: POSTGRES_URL,
    wrapper: callgrind,
    env: { DELIVERY_CACHE_TTL_SECONDS: '3600', DELIVERY_LOAD_TIMEOUT_MS: '600000' },
  });
  stops.push(() => deployment.stop());
  const paths = [deployment.paths.small, deployment.paths.large];
  const recordings = Object.fromEntries(await Promise.all(paths.map(async (path) => [path, await recordResponse(deployment.url + path)] as const)));
  const recordingFile = join(outDir, 'responses.json');
  writeFileSync(recordingFile, JSON.stringify(recordings));
  const bare = await startNode('bare', [...TSX, repoPath('bench/delivery/bare-server.ts'), recordingFile], {
    cwd: repoPath('apps/delivery-api'),
    env: process.env,
    wrapper: callgrind('bare'),
    timeoutMs: 900_000,
  });
  stops.push(() => bare.stop());
  const bareUrl = (JSON.parse(bare.firstLine) as { url: string }).url;

  for (const path of ['/', '/ready', '/metrics']) await fetch(deployment.url + path).then((res) => res.arrayBuffer());
  const rows: string[] = [];
  for (const [payload, path] of [['1.3 KB', deployment.paths.small], ['50 KB', deployment.paths.large]] as const) {
    const figures: Record<string, number[]> = {};
    for (const [server, url, pid] of [['bare', bareUrl, bare.pid], ['served', deployment.url, deployment.serverPid]] as const) {
      log(`${payload} ${server}: warming up (${WARMUP} requests)…`);
      await send(url + path, WARMUP);
      figures[server] = await countPerResponse(server === 'bare' ? 'bare' : 'delivery-api', pid, url + path);
      log(`${payload} ${server}: ${figures[server]!.map((n) => Math.round(n)).join(', ')} instructions per response`);
    }
    const bareMedian = median(figures.bare!);
    const servedMedian = median(figures.served!);
    rows.push(`| ${payload} | ${Math.round(bareMedian)} | ${Math.round(servedMedian)} | ${(servedMedian / bareMedian).toFixed(2)}x | ${figures.served!.map((n) => Math.round(n)).join(', ')} |`);
  }
  process.stdout.write(
    [
      `Node ${process.version}, callgrind, ${WINDOWS} windows of ${REQUESTS} requests over ${CONNECTIONS} connections after ${WARMUP}; median of windows.`,
      '',
      '| payload | bare instructions/response | delivery API alone | served / bare | delivery windows |',
      '|---|---|---|---|---|',
      ...rows,
      '',
    ].join('\n'),
  );
} finally {
  for (const stop of stops.reverse()) await stop().catch((error: unknown) => log(`stopping: ${String(error)}`));
  rmSync(outDir, { recursive: true, force: true });
}
