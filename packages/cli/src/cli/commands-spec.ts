type OptionSpec = { readonly type: 'boolean' | 'string'; readonly short?: string };

const GLOBAL_OPTIONS = {
  json: { type: 'boolean' },
  debug: { type: 'boolean' },
  server: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Record<string, OptionSpec>;

export interface CommandSpec {
  readonly summary: string;
  readonly usage: string;
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** Positional arguments: exactly this many. */
  readonly positionals: 0 | 1;
}

/** Every command, its flags and its one-line help (README.md lists the same). */
export const COMMANDS = {
  login: {
    summary: 'sign in with the device flow and save the login',
    usage: 'cpc login [--no-browser]',
    options: { 'no-browser': { type: 'boolean' } },
    positionals: 0,
  },
  logout: { summary: 'revoke the saved login and delete it', usage: 'cpc logout', options: {}, positionals: 0 },
  whoami: { summary: 'who the CLI acts as, and with which scopes', usage: 'cpc whoami', options: {}, positionals: 0 },
  push: {
    summary: 'upload a built component (and release it with --publish)',
    usage:
      'cpc push <file|dir> [--component <id>] [--name <name>] [--org <name|id>] [--publish --env <environment>] [--require-release] [--dry-run]',
    options: {
      component: { type: 'string' },
      name: { type: 'string' },
      org: { type: 'string' },
      env: { type: 'string' },
      publish: { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      'require-release': { type: 'boolean' },
    },
    positionals: 1,
  },
  list: { summary: 'the components of your organizations', usage: 'cpc list [--org <name|id>] [--name <text>]', options: { org: { type: 'string' }, name: { type: 'string' } }, positionals: 0 },
  variants: {
    summary: "a component's versions, newest first, and where each is released",
    usage: 'cpc variants --component <id>',
    options: { component: { type: 'string' } },
    positionals: 0,
  },
  rollback: {
    summary: 'release the version the current release of an environment replaced',
    usage: 'cpc rollback --component <id> --env <environment> [--require-release]',
    options: { component: { type: 'string' }, env: { type: 'string' }, 'require-release': { type: 'boolean' } },
    positionals: 0,
  },
  dev: {
    summary: 'serve a component locally with the host SDK and reload it on save',
    usage: 'cpc dev <file> [--port <port>] [--open]',
    options: { port: { type: 'string' }, open: { type: 'boolean' } },
    positionals: 1,
  },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;

export const GLOBALS = GLOBAL_OPTIONS;

export const isCommandName = (name: string): name is CommandName => Object.hasOwn(COMMANDS, name);

export function helpText(command?: CommandName): string {
  const globals = 'Every command takes --json (one JSON envelope on stdout), --debug and --server <MCP URL>.';
  if (command) return `Usage: ${COMMANDS[command].usage}\n\n${COMMANDS[command].summary}.\n${globals}`;
  const lines = Object.entries(COMMANDS).map(([name, spec]) => `  ${name.padEnd(9)} ${spec.summary}`);
  return `Usage: cpc <command> [options]\n\nCommands:\n${lines.join('\n')}\n\n${globals}\nRun cpc <command> --help for its options.`;
}
