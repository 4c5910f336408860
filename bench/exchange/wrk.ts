import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/* The load generator: wrk in its own process, with a Lua script that posts the exchange and checks each answer. */

export interface WrkResult {
  readonly requests: number;
  readonly rps: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Socket errors and timeouts, plus responses without the expected status and body. */
  readonly errors: number;
  /** Requests sent after the list of one-use tokens ran out (each is also a bad response). */
  readonly exhausted: number;
}

/** What one request sends: the form around the subject token, and the subject token or a file of one-use tokens. */
export interface ExchangeLoad {
  readonly url: string;
  readonly bodyHead: string;
  readonly bodyTail: string;
  readonly subject: { readonly token: string } | { readonly tokensFile: string };
  readonly expectStatus: number;
  /** A substring of every good response body. */
  readonly expect: string;
}

const script = fileURLToPath(new URL('./exchange.lua', import.meta.url));

/** Runs `load` from `connections` connections (one wrk thread) for `seconds`. */
export async function runWrk(load: ExchangeLoad, connections: number, seconds: number): Promise<WrkResult> {
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', '--timeout', '30s', '-s', script, load.url];
  const child = spawn('wrk', args, {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      WRK_BODY_HEAD: load.bodyHead,
      WRK_BODY_TAIL: load.bodyTail,
      WRK_SUBJECT_TOKEN: 'token' in load.subject ? load.subject.token : '',
      WRK_TOKENS_FILE: 'tokensFile' in load.subject ? load.subject.tokensFile : '',
      WRK_EXPECT_STATUS: String(load.expectStatus),
      WRK_EXPECT: load.expect,
    },
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  const line = output.split('\n').find((l) => l.startsWith('WRK_JSON '));
  // wrk's own output would show the request; it holds no token (the body is not printed), but keep it short.
  if (code !== 0 || line === undefined) throw new Error(`wrk failed (exit ${code}):\n${output.slice(0, 2000)}`);
  const summary = JSON.parse(line.slice('WRK_JSON '.length)) as {
    requests: number;
    durationUs: number;
    p50Us: number;
    p99Us: number;
    socketErrors: number;
    badResponses: number;
    exhausted: number;
  };
  return {
    requests: summary.requests,
    rps: summary.requests / (summary.durationUs / 1e6),
    p50Ms: summary.p50Us / 1000,
    p99Ms: summary.p99Us / 1000,
    errors: summary.socketErrors + summary.badResponses,
    exhausted: summary.exhausted,
  };
}
