import { fileURLToPath } from 'node:url';
import { runWrkScript, type WrkRun } from '../wrk-script.js';

/* The load generator for tools/call: wrk with a Lua script that posts the body and checks each answer. */

export type WrkResult = WrkRun;

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
  return runWrkScript({
    script,
    url: options.url,
    env: { WRK_BODY: options.body, WRK_AUTHORIZATION: options.authorization ?? '', WRK_EXPECT: options.expect },
    connections: options.connections,
    seconds: options.seconds,
  });
}
