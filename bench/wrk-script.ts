import { spawn } from 'node:child_process';

/** What a bench's Lua script prints on its `WRK_JSON ` line (and any counters of its own). */
interface WrkSummary {
  readonly requests: number;
  readonly durationUs: number;
  readonly p50Us: number;
  readonly p99Us: number;
  readonly socketErrors: number;
  readonly badResponses: number;
  readonly [counter: string]: number;
}

export interface WrkRun {
  readonly requests: number;
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Socket errors and timeouts, plus responses the script found wrong. */
  readonly errors: number;
  /** The script's summary, for counters of its own. */
  readonly summary: WrkSummary;
}

/**
 * Runs wrk in its own process (one thread, `connections` connections, `seconds`) with a Lua script that
 * checks every answer and prints a `WRK_JSON {…}` summary; `env` is how the script gets its request.
 */
export async function runWrkScript(options: {
  script: string;
  url: string;
  env: Readonly<Record<string, string>>;
  connections: number;
  seconds: number;
}): Promise<WrkRun> {
  const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--latency', '--timeout', '30s', '-s', options.script, options.url];
  const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...options.env } });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const line = output.split('\n').find((l) => l.startsWith('WRK_JSON '));
  if (code !== 0 || line === undefined) throw new Error(`wrk failed (exit ${code}):\n${output.slice(0, 2000)}`);
  const summary = JSON.parse(line.slice('WRK_JSON '.length)) as WrkSummary;
  return {
    requests: summary.requests,
    rps: summary.requests / (summary.durationUs / 1e6),
    p50Ms: summary.p50Us / 1000,
    p99Ms: summary.p99Us / 1000,
    errors: summary.socketErrors + summary.badResponses,
    summary,
  };
}
