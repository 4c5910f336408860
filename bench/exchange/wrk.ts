import { fileURLToPath } from 'node:url';
import { runWrkScript, type WrkRun } from '../wrk-script.js';

/* The load generator: wrk in its own process, with a Lua script that posts the exchange and checks each answer. */

export interface WrkResult extends WrkRun {
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
  // wrk's own output holds no token (the body is not printed).
  const run = await runWrkScript({
    script,
    url: load.url,
    env: {
      WRK_BODY_HEAD: load.bodyHead,
      WRK_BODY_TAIL: load.bodyTail,
      WRK_SUBJECT_TOKEN: 'token' in load.subject ? load.subject.token : '',
      WRK_TOKENS_FILE: 'tokensFile' in load.subject ? load.subject.tokensFile : '',
      WRK_EXPECT_STATUS: String(load.expectStatus),
      WRK_EXPECT: load.expect,
    },
    connections,
    seconds,
  });
  return { ...run, exhausted: run.summary.exhausted ?? 0 };
}
