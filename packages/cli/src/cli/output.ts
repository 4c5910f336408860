import type { CliError } from './errors.js';
import type { Redactor } from './redact.js';

export interface Streams {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

/**
 * The one way a command speaks. With `--json`: one envelope on stdout at the end, and events as
 * NDJSON on stderr. Without: text for people, the result on stdout and progress on stderr.
 * Everything passes through the redactor first.
 */
export class Output {
  constructor(
    private readonly streams: Streams,
    private readonly options: { json: boolean; debug: boolean },
    private readonly redactor: Redactor,
  ) {}

  get json(): boolean {
    return this.options.json;
  }

  /** A step or progress report: `{ "event": name, ...fields }` with --json, else `text`. */
  event(name: string, fields: Record<string, unknown>, text: string): void {
    this.stderrLine(this.options.json ? JSON.stringify({ event: name, ...fields }) : text);
  }

  /** Only with --debug: what the CLI asks of which server, never a token (prefixes only). */
  debug(text: string): void {
    if (this.options.debug) this.stderrLine(this.options.json ? JSON.stringify({ event: 'debug', message: text }) : `debug: ${text}`);
  }

  success(command: string, data: unknown, text: string): void {
    this.stdoutLine(this.options.json ? JSON.stringify({ ok: true, command, data }) : text);
  }

  failure(command: string, error: CliError): void {
    if (this.options.json) {
      this.stdoutLine(JSON.stringify({ ok: false, command, error: { code: error.code, message: error.message, exitCode: error.exitCode } }));
    } else {
      this.stderrLine(`cpc ${command}: ${error.message}`);
    }
  }

  private stdoutLine(text: string): void {
    this.streams.stdout.write(`${this.redactor.redact(text)}\n`);
  }

  private stderrLine(text: string): void {
    this.streams.stderr.write(`${this.redactor.redact(text)}\n`);
  }
}
