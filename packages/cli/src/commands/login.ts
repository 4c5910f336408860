import { configDir, credentialsPath, writeSavedLogin } from '../auth/credentials-file.js';
import { deviceLogin } from '../auth/device-login.js';
import { discoverAuthServer } from '../auth/discovery.js';
import type { CommandContext, CommandResult } from '../cli/context.js';
import { CliError } from '../cli/errors.js';
import { whoamiOf } from './whoami.js';

const DEVICE_NAME_MAX = 64;

/** `cpc login`: the device flow; the browser opens on the code's page unless --no-browser or nobody is at the terminal. */
export async function login(ctx: CommandContext): Promise<CommandResult> {
  const { deps, out } = ctx;
  const authServer = await discoverAuthServer(deps.fetch, ctx.server);
  const openBrowser = ctx.args.options['no-browser'] !== true && ctx.interactive;
  const saved = await deviceLogin(
    { authServer, server: ctx.server, deviceName: `cpc on ${deps.hostname()}`.slice(0, DEVICE_NAME_MAX) },
    {
      fetch: deps.fetch,
      now: deps.now,
      sleep: deps.sleep,
      redactor: ctx.redactor,
      showCode(code) {
        out.event(
          'login.code',
          { verificationUri: code.verificationUri, verificationUriComplete: code.verificationUriComplete ?? null, userCode: code.userCode, expiresIn: code.expiresIn },
          `Open ${code.verificationUri} and enter the code ${code.userCode} (valid ${Math.round(code.expiresIn / 60)} minutes). Waiting for you to confirm it…`,
        );
        if (openBrowser) deps.openBrowser(code.verificationUriComplete ?? code.verificationUri);
      },
      onSlowDown(interval) {
        out.event('login.slow_down', { interval }, `The server asked to poll more slowly: every ${interval} s now.`);
      },
    },
  );
  const dir = configDir(deps.env, deps.homedir());
  await writeSavedLogin(dir, saved);
  const user = await whoamiOf(ctx).catch((error: unknown) => {
    // The login is saved and valid at the auth server; only the check through the MCP server failed.
    if (!(error instanceof CliError)) throw error;
    out.event('login.unverified', { code: error.code, message: error.message }, `Signed in, but the MCP server could not confirm it: ${error.message}`);
    return null;
  });
  return {
    data: { server: ctx.server, issuer: saved.issuer, email: user?.email ?? null, userId: user?.userId ?? null, scope: saved.scope, credentialsFile: credentialsPath(dir) },
    text: `Signed in${user === null ? '' : ` as ${user.email}`} to ${ctx.server}. The login is saved in ${credentialsPath(dir)}.`,
  };
}
