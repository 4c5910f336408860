import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/* The load generator for tools/call: wrk with a Lua script that posts the body and checks each answer. */

export interface WrkResult {
  readonly requests: number;
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Socket errors and timeouts, plus responses that are not a 200 with the expected result. */
  readonly errors: number;
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
