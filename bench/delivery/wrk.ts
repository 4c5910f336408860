/**
 * The load generator: Debian's `wrk`, in its own process, so it never shares an
 * event loop (or, on 2 cores, as much CPU) with the servers it measures.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface WrkResult {
  readonly requests: number;
  readonly rps: number;
  /** Milliseconds. */
  readonly p50: number;
  readonly p99: number;
  /** Socket errors plus non-2xx/3xx responses. */
  readonly errors: number;
}

const MS_PER_UNIT: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

const latencyMs = (output: string, percentile: string): number => {
  const match = new RegExp(`^\\s*${percentile}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, 'm').exec(output);
  if (!match) throw new Error(`wrk printed no ${percentile}% latency:\n${output}`);
  return Number(match[1]) * MS_PER_UNIT[match[2]!]!;
};

/** Parses what `wrk --latency` prints. */
export function parseWrk(output: string): WrkResult {
  const requests = /^\s*(\d+) requests in/m.exec(output);
  const rps = /^Requests\/sec:\s+([\d.]+)/m.exec(output);
  if (!requests || !rps) throw new Error(`cannot read wrk's output:\n${output}`);
  const socket = /^\s*Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/m.exec(output);
  const non2xx = /^\s*Non-2xx or 3xx responses: (\d+)/m.exec(output);
  const errors = (socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0) + (non2xx ? Number(non2xx[1]) : 0);
  return { requests: Number(requests[1]), rps: Number(rps[1]), p50: latencyMs(output, '50'), p99: latencyMs(output, '99'), errors };
}

/** `wrk -t1 -c<connections> -d<seconds>s --latency [-s <script>] <url>`. */
export async function runWrk(url: string, options: { connections: number; seconds: number; script?: string }): Promise<WrkResult> {
  const script = options.script === undefined ? [] : ['-s', options.script];
  const { stdout } = await run('wrk', ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--latency', ...script, url]);
  return parseWrk(stdout);
}
