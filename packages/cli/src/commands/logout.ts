import { configDir, deleteSavedLogin, readSavedLogin } from '../auth/credentials-file.js';
import { discoverAuthServer } from '../auth/discovery.js';
import { postForm } from '../auth/http.js';
import { CliError } from '../cli/errors.js';
import type { CommandContext, CommandResult } from '../cli/context.js';

/** `cpc logout`: revokes the saved refresh token (its grant goes with it), then deletes the file. */
export async function logout(ctx: CommandContext): Promise<CommandResult> {
  const { deps } = ctx;
  const dir = configDir(deps.env, deps.homedir());
  let saved;
  try {
    saved = await readSavedLogin(dir);
  } catch (error) {
    // A file others could read is deleted all the same: it is what logging out is for.
    if (!(error instanceof CliError)) throw error;
    saved = null;
  }
  let revoked = false;
  if (saved !== null) {
    ctx.redactor.remember(saved.accessToken);
    ctx.redactor.remember(saved.refreshToken);
    const authServer = await discoverAuthServer(deps.fetch, saved.server).catch(() => null);
    const token = saved.refreshToken ?? saved.accessToken;
    if (authServer?.revocationEndpoint) {
      const answer = await postForm(
        deps.fetch,
        authServer.revocationEndpoint,
        { token, token_type_hint: saved.refreshToken ? 'refresh_token' : 'access_token', client_id: saved.clientId },
        'the auth server',
      ).catch(() => null);
      revoked = answer?.status === 200;
    }
  }
  const deleted = await deleteSavedLogin(dir);
  const text = !deleted
    ? 'Not signed in: there was no saved login.'
    : revoked
      ? 'Signed out: the login was revoked at the auth server and deleted here.'
      : 'Signed out here; the auth server could not be reached to revoke the login (revoke "cpc" under /account).';
  return { data: { loggedOut: deleted, revoked }, text };
}
