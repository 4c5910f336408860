import { COMMANDS, helpText, type CommandName } from './commands-spec.js';
import { DEFAULT_SERVER, type CliDeps, type CommandContext, type CommandResult } from './context.js';
import { CliError, ExitCode, usageError } from './errors.js';
import { Output } from './output.js';
import { parseCommandLine, peekGlobals, type ParsedArgs } from './parse-args.js';
import { Redactor } from './redact.js';
import { login } from '../commands/login.js';
import { logout } from '../commands/logout.js';
import { whoami } from '../commands/whoami.js';
import { push } from '../commands/push.js';
import { list } from '../commands/list.js';
import { variants } from '../commands/variants.js';
import { rollback } from '../commands/rollback.js';
import { dev } from '../commands/dev.js';

const HANDLERS: Record<CommandName, (ctx: CommandContext) => Promise<CommandResult>> = { login, logout, whoami, push, list, variants, rollback, dev };

const isHttpUrl = (text: string): boolean => {
  try {
    return ['http:', 'https:'].includes(new URL(text).protocol);
  } catch {
    return false;
  }
};

/** One run of `cpc`: parses argv, runs the command, writes the envelope or the text, and answers the exit code. */
export async function runCli(argv: readonly string[], deps: CliDeps): Promise<ExitCode> {
  const redactor = new Redactor();
  const peeked = peekGlobals(argv);
  let args: ParsedArgs;
  try {
    args = parseCommandLine(argv);
  } catch (error) {
    const out = new Output(deps.streams, { json: peeked.json, debug: false }, redactor);
    out.failure(peeked.command, error as CliError);
    return ExitCode.Usage;
  }
  const out = new Output(deps.streams, { json: args.json, debug: args.debug }, redactor);
  if (args.command === null || args.help) {
    const text = helpText(args.command ?? undefined);
    out.success(args.command ?? 'cpc', { usage: args.command === null ? 'cpc <command> [options]' : COMMANDS[args.command].usage }, text);
    return ExitCode.Ok;
  }
  const server = args.server ?? deps.env.CPC_SERVER ?? DEFAULT_SERVER;
  if (!isHttpUrl(server)) {
    out.failure(args.command, usageError(`${args.server === undefined && deps.env.CPC_SERVER ? 'CPC_SERVER' : '--server'} must be the MCP server's http(s) URL, for example ${DEFAULT_SERVER} (got "${server}").`));
    return ExitCode.Usage;
  }
  const ctx: CommandContext = {
    deps,
    args,
    out,
    redactor,
    server,
    interactive: deps.stdinIsTTY && !deps.env.CI,
  };
  try {
    const result = await HANDLERS[args.command](ctx);
    out.success(args.command, result.data, result.text);
    return ExitCode.Ok;
  } catch (error) {
    const failure =
      error instanceof CliError ? error : new CliError('INTERNAL', `Unexpected failure: ${error instanceof Error ? error.message : String(error)}`, ExitCode.Failure);
    if (!(error instanceof CliError)) out.debug(error instanceof Error && error.stack ? error.stack : String(error));
    out.failure(args.command, failure);
    return failure.exitCode;
  }
}

