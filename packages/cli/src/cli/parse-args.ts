import { parseArgs } from 'node:util';
import { COMMANDS, GLOBALS, isCommandName, type CommandName } from './commands-spec.js';
import { usageError } from './errors.js';

export interface ParsedArgs {
  readonly command: CommandName | null;
  readonly help: boolean;
  readonly json: boolean;
  readonly debug: boolean;
  readonly server: string | undefined;
  readonly options: Readonly<Record<string, string | boolean | undefined>>;
  readonly positionals: readonly string[];
}

/** What the global flags say even when the rest is wrong, so a usage error still answers in JSON. */
export function peekGlobals(argv: readonly string[]): { json: boolean; debug: boolean; command: string } {
  const first = argv[0];
  return { json: argv.includes('--json'), debug: argv.includes('--debug'), command: first !== undefined && isCommandName(first) ? first : 'cpc' };
}

/** `cpc <command> [flags] [argument]`; any unknown flag, missing value or extra argument is a usage error. */
export function parseCommandLine(argv: readonly string[]): ParsedArgs {
  const [name, ...rest] = argv;
  if (name === undefined || name.startsWith('-')) {
    if (argv.includes('--help') || argv.includes('-h')) {
      return { command: null, help: true, json: argv.includes('--json'), debug: false, server: undefined, options: {}, positionals: [] };
    }
    throw usageError('Name a command first, for example "cpc push dist/". Run cpc --help for the list.');
  }
  if (!isCommandName(name)) throw usageError(`Unknown command "${name}". Commands: ${Object.keys(COMMANDS).join(', ')}.`);
  const spec = COMMANDS[name];
  let parsed;
  try {
    parsed = parseArgs({ args: rest, options: { ...GLOBALS, ...spec.options }, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageError(`${(error as Error).message.replace(/ To specify .*$/s, '')} Usage: ${spec.usage}`);
  }
  const { positionals } = parsed;
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const help = values.help === true;
  if (!help && positionals.length !== spec.positionals) {
    throw usageError(
      spec.positionals === 0
        ? `cpc ${name} takes no argument (got "${positionals.join(' ')}"). Usage: ${spec.usage}`
        : `cpc ${name} takes one argument${positionals.length === 0 ? '' : ` (got ${positionals.length})`}. Usage: ${spec.usage}`,
    );
  }
  for (const [option, value] of Object.entries(values)) {
    if (typeof value === 'string' && value.trim() === '') throw usageError(`--${option} must not be empty. Usage: ${spec.usage}`);
  }
  return {
    command: name,
    help,
    json: values.json === true,
    debug: values.debug === true,
    server: typeof values.server === 'string' ? values.server : undefined,
    options: values,
    positionals,
  };
}
