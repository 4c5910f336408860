/** The benchmark's moving parts: server children, one wrk measurement with its CPU cost, a response check. */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { cpuStopwatch } from './cpu-time.js';
import { runWrk } from './wrk.js';

/**
 * Runs one server script in a child process; resolves with the JSON line it prints when
 * ready. It is also stopped when this process exits, so a failed run leaves no server
 * running with its database.
 */
export function startChild<T>(script: string): Promise<{ ready: T; pid: number; stop(): void }> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(new URL(script, import.meta.url))], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  });
  const stop = (): void => {
    child.kill('SIGTERM');
  };
  process.once('exit', stop);
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      resolve({ ready: JSON.parse(line) as T, pid: child.pid!, stop });
    });
  });
}

export interface Scenario {
  name: string;
  kind: 'baseline' | 'read' | 'filter' | 'diagnostic';
  url: string;
  pid: number;
  body: string;
  authorization?: string;
  /** A substring of every good response body: wrk's script checks each response for it. */
  expect: string;
  filter?: { fragment: string; components: number };
}

export interface Sample {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time per request, in microseconds: the server process, all of PostgreSQL, wrk. */
  serverCpuUs: number;
  postgresCpuUs: number;
  wrkCpuUs: number;
}

export async function measure(scenario: Scenario, connections: number, seconds: number): Promise<Sample> {
  const cpu = cpuStopwatch(scenario.pid);
  const result = await runWrk({ url: scenario.url, body: scenario.body, authorization: scenario.authorization, expect: scenario.expect, connections, seconds });
  const spent = cpu.stop();
  const perRequest = (ms: number): number => (ms * 1000) / Math.max(1, result.requests);
  return {
    rps: result.rps,
    p50: result.p50Ms,
    p99: result.p99Ms,
    errors: result.errors,
    serverCpuUs: perRequest(spent.serverMs),
    postgresCpuUs: perRequest(spent.postgresMs),
    wrkCpuUs: perRequest(spent.generatorMs),
  };
}

/** One request, parsed: a JSON-RPC result that is no tool error and holds `expect`; otherwise the run stops. */
export async function validate(scenario: Scenario): Promise<void> {
  const response = await fetch(scenario.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...(scenario.authorization ? { authorization: scenario.authorization } : {}),
    },
    body: scenario.body,
  });
  const text = await response.text();
  let message: { result?: { isError?: boolean } } = {};
  try {
    message = JSON.parse(text) as typeof message;
  } catch {
    // reported below
  }
  if (response.status !== 200 || message.result === undefined || message.result.isError === true || !text.includes(scenario.expect)) {
    throw new Error(`${scenario.name}: expected a result holding ${scenario.expect}, got ${response.status} ${text.slice(0, 500)}`);
  }
}

export const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};
