import { CliError, ExitCode } from '../cli/errors.js';
import type { Redactor } from '../cli/redact.js';
import type { SavedLogin } from './credentials-file.js';
import type { AuthServer } from './discovery.js';
import { oauthErrorText, postForm, serverFailure } from './http.js';
import { loginFromTokenAnswer } from './token-answer.js';

/** A new access token (and the rotated refresh token) for a saved login whose access token expired. */
export async function refreshLogin(
  login: SavedLogin,
  authServer: AuthServer,
  deps: { fetch: typeof fetch; now: () => number; redactor: Redactor },
): Promise<SavedLogin> {
  if (login.refreshToken === null) throw new CliError('LOGIN_EXPIRED', 'The saved login expired. Run cpc login again.', ExitCode.Auth);
  const answer = await postForm(
    deps.fetch,
    authServer.tokenEndpoint,
    { grant_type: 'refresh_token', client_id: login.clientId, refresh_token: login.refreshToken, resource: login.server },
    'the auth server',
  );
  if (answer.status === 400 || answer.status === 401) {
    throw new CliError('LOGIN_EXPIRED', `The saved login can no longer be renewed (${oauthErrorText(answer)}). Run cpc login again.`, ExitCode.Auth);
  }
  const renewed = loginFromTokenAnswer(answer, { ...login, previousRefreshToken: login.refreshToken }, deps);
  if (renewed === null) throw serverFailure('Renewing the login', answer);
  return renewed;
}
