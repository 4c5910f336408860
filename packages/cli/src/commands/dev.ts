import type { CommandContext, CommandResult } from '../cli/context.js';
import { CliError, ExitCode, usageError } from '../cli/errors.js';
import { DEFAULT_DEV_PORT, DevServerError, startDevServer } from '../dev/index.js';

function portOption(ctx: CommandContext): number {
  const value = ctx.args.options.port;
  if (value === undefined) return DEFAULT_DEV_PORT;
  const port = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value) || port > 65_535) throw usageError(`--port must be a port number from 0 to 65535 (got "${String(value)}").`);
  return port;
}

/** `cpc dev <file>`: the local dev server (src/dev) until Ctrl+C; its reports go to stderr like every event. */
export async function dev(ctx: CommandContext): Promise<CommandResult> {
  const file = ctx.args.positionals[0]!;
  let server;
  try {
    server = await startDevServer({
      file,
      port: portOption(ctx),
      open: ctx.args.options.open === true,
      log: {
        info: (message) => ctx.out.event('dev.info', { message }, message),
        error: (message) => ctx.out.event('dev.problem', { message }, message),
      },
    });
  } catch (error) {
    if (!(error instanceof DevServerError)) throw error;
    const usage = error.code === 'FILE_NOT_FOUND' || error.code === 'INVALID_OPTIONS';
    throw new CliError(error.code, error.message, usage ? ExitCode.Usage : ExitCode.Failure);
  }
  ctx.out.event('dev.ready', { url: server.url }, `Serving ${file} at ${server.url} (Ctrl+C stops).`);
  await ctx.deps.untilInterrupted();
  await server.close();
  return { data: { file, url: server.url }, text: 'cpc dev stopped.' };
}
