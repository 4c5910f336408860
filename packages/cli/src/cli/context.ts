import type { Output, Streams } from './output.js';
import type { ParsedArgs } from './parse-args.js';
import type { Redactor } from './redact.js';

/** What the CLI takes from its process: passed in, so tests and the binary wire the same code. */
export interface CliDeps {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly streams: Streams;
  readonly stdinIsTTY: boolean;
  readonly fetch: typeof fetch;
  readonly openBrowser: (url: string) => void;
  readonly hostname: () => string;
  readonly homedir: () => string;
  readonly sleep: (ms: number) => Promise<void>;
  readonly now: () => number;
  /** Resolves on Ctrl+C (SIGINT) or SIGTERM: what ends `cpc dev`. */
  readonly untilInterrupted: () => Promise<void>;
}

export interface CommandContext {
  readonly deps: CliDeps;
  readonly args: ParsedArgs;
  readonly out: Output;
  readonly redactor: Redactor;
  /** The MCP endpoint: --server, else CPC_SERVER, else the local stack's. */
  readonly server: string;
  /** False when stdin is not a terminal or CI is set: nothing may wait for a person at this terminal. */
  readonly interactive: boolean;
}

/** What a command returns: the envelope's `data` and the text people read. */
export interface CommandResult {
  readonly data: unknown;
  readonly text: string;
}

export const DEFAULT_SERVER = 'http://localhost:4100/mcp';
