import { readFile } from 'node:fs/promises';
import { apiTokenProblem } from '@cp/domain';
import type { CommandContext } from '../cli/context.js';
import { CliError, ExitCode, authRequired } from '../cli/errors.js';
import { secretPrefix } from '../cli/redact.js';
import type { AccessToken } from './access-token.js';
import { ciIdToken, inGitHubActionsWithIdToken } from './ci-id-token.js';
import { configDir, readSavedLogin, writeSavedLogin } from './credentials-file.js';
import { discoverAuthServer } from './discovery.js';
import { refreshLogin } from './refresh-login.js';
import { exchangeToken, SubjectTokenType } from './token-exchange.js';
import { withLoginLock } from './login-lock.js';

// An access token this close to its expiry is renewed first, so it cannot expire between two tool calls.
const RENEW_BEFORE_MS = 60_000;

async function apiTokenFromEnv(ctx: CommandContext): Promise<string | null> {
  const { env } = ctx.deps;
  if (env.CPC_TOKEN) return env.CPC_TOKEN.trim();
  if (!env.CPC_TOKEN_FILE) return null;
  try {
    return (await readFile(env.CPC_TOKEN_FILE, 'utf8')).trim();
  } catch (error) {
    throw new CliError('TOKEN_FILE_UNREADABLE', `CPC_TOKEN_FILE names ${env.CPC_TOKEN_FILE}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}).`, ExitCode.Auth);
  }
}

/**
 * The access token for this call, from the first credential there is (docs/cli-and-ci.md, "The CLI's
 * credentials, in order"): an API token from the environment, the CI's OIDC token, the saved login
 * (renewed when it expires). Tokens never come from argv.
 */
export async function resolveAccessToken(ctx: CommandContext): Promise<AccessToken> {
  const { deps, redactor, server } = ctx;
  const exchangeDeps = { fetch: deps.fetch, now: deps.now, redactor };
  const apiToken = await apiTokenFromEnv(ctx);
  if (apiToken !== null) {
    redactor.remember(apiToken);
    const problem = apiTokenProblem(apiToken);
    if (problem !== null) throw new CliError('INVALID_API_TOKEN', `${deps.env.CPC_TOKEN ? 'CPC_TOKEN' : 'CPC_TOKEN_FILE'}: ${problem}`, ExitCode.Auth);
    const authServer = await discoverAuthServer(deps.fetch, server);
    ctx.out.debug(`exchanging API token ${secretPrefix(apiToken)} at ${authServer.tokenEndpoint}`);
    return exchangeToken(
      { authServer, resource: server, subjectToken: apiToken, subjectTokenType: SubjectTokenType.ApiToken, organization: deps.env.CPC_ORGANIZATION, source: 'api-token' },
      exchangeDeps,
    );
  }
  const authServer = inGitHubActionsWithIdToken(deps.env) || deps.env.CPC_ID_TOKEN ? await discoverAuthServer(deps.fetch, server) : null;
  const ci = authServer === null ? null : await ciIdToken(deps.env, authServer.issuer, { fetch: deps.fetch, redactor });
  if (authServer !== null && ci !== null) {
    ctx.out.debug(`exchanging the ${ci.source} OIDC token ${secretPrefix(ci.token)} at ${authServer.tokenEndpoint}`);
    return exchangeToken(
      { authServer, resource: server, subjectToken: ci.token, subjectTokenType: SubjectTokenType.IdToken, organization: deps.env.CPC_ORGANIZATION, source: ci.source },
      exchangeDeps,
    );
  }
  return savedLoginToken(ctx);
}

async function savedLoginToken(ctx: CommandContext): Promise<AccessToken> {
  const { deps, redactor, server } = ctx;
  const dir = configDir(deps.env, deps.homedir());
  const login = await readSavedLogin(dir);
  if (login === null) {
    const hint = deps.env.GITHUB_ACTIONS === 'true' ? ' In GitHub Actions, give the job "permissions: id-token: write" for trusted publishing.' : '';
    throw authRequired(`Not signed in. Run cpc login, or set CPC_TOKEN (an API token) or CPC_TOKEN_FILE.${hint}`);
  }
  if (login.server !== server) throw authRequired(`The saved login is for ${login.server}, not ${server}. Run cpc login --server ${server}.`);
  redactor.remember(login.accessToken);
  redactor.remember(login.refreshToken);
  if (login.expiresAt - RENEW_BEFORE_MS > deps.now()) return { token: login.accessToken, source: 'login', expiresAt: login.expiresAt };
  const renewed = await withLoginLock(dir, deps.sleep, async () => {
    // Another cpc may have renewed it while this one waited for the lock: its new tokens are in the file.
    const current = (await readSavedLogin(dir)) ?? login;
    redactor.remember(current.accessToken);
    redactor.remember(current.refreshToken);
    if (current.expiresAt - RENEW_BEFORE_MS > deps.now()) return current;
    const authServer = await discoverAuthServer(deps.fetch, server);
    ctx.out.debug(`renewing the saved login's access token at ${authServer.tokenEndpoint}`);
    const fresh = await refreshLogin(current, authServer, { fetch: deps.fetch, now: deps.now, redactor });
    await writeSavedLogin(dir, fresh);
    return fresh;
  });
  return { token: renewed.accessToken, source: 'login', expiresAt: renewed.expiresAt };
}
