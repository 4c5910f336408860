import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/*
 * The load generator: Debian's wrk in its own process. On a 2-core machine a generator
 * inside the Node parent (autocannon) takes a core and caps both servers at its own
 * pace, which compresses every ratio toward 1.
 */

export interface WrkResult {
  readonly requests: number;
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Socket errors and timeouts, plus responses that are not a 200 with the expected result. */
  readonly errors: number;
}

const hasWrk = (): boolean => spawnSync('wrk', ['-v']).error === undefined;
const hasAptGet = (): boolean => spawnSync('apt-get', ['--version']).error === undefined;

/** Installs wrk from Debian when it is missing and we are root with apt-get; otherwise exits with the command to run. */
export function ensureWrk(): void {
  if (hasWrk()) return;
  if (process.getuid?.() === 0 && hasAptGet()) {
    const aptGet = (...args: string[]): boolean =>
      spawnSync('apt-get', args, { stdio: ['ignore', 2, 2], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } }).status === 0;
    process.stderr.write('wrk is missing: apt-get install -y wrk\n');
    // A fresh machine may have no package lists yet.
    if (!aptGet('install', '-y', 'wrk')) aptGet('update') && aptGet('install', '-y', 'wrk');
    if (hasWrk()) return;
  }
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  process.stderr.write(`bench/mcp needs wrk (Debian's package): run \`${sudo}apt-get update && ${sudo}apt-get install -y wrk\`, then the bench again.\n`);
  process.exit(1);
}

const script = fileURLToPath(new URL('./tools-call.lua', import.meta.url));

/**
 * POSTs `body` to `url` from `connections` connections (one wrk thread) for `seconds`.
 * `expect` is a substring every good response body holds.
 */
export async function runWrk(options: {
  url: string;
  body: string;
  authorization?: string;
  expect: string;
  connections: number;
  seconds: number;
}): Promise<WrkResult> {
  const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--latency', '--timeout', '30s', '-s', script, options.url];
  const child = spawn('wrk', args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, WRK_BODY: options.body, WRK_AUTHORIZATION: options.authorization ?? '', WRK_EXPECT: options.expect },
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const line = output.split('\n').find((l) => l.startsWith('WRK_JSON '));
  if (code !== 0 || line === undefined) throw new Error(`wrk failed (exit ${code}):\n${output}`);
  const summary = JSON.parse(line.slice('WRK_JSON '.length)) as {
    requests: number;
    durationUs: number;
    p50Us: number;
    p99Us: number;
    socketErrors: number;
    badResponses: number;
  };
  return {
    requests: summary.requests,
    rps: summary.requests / (summary.durationUs / 1e6),
    p50Ms: summary.p50Us / 1000,
    p99Ms: summary.p99Us / 1000,
    errors: summary.socketErrors + summary.badResponses,
  };
}
