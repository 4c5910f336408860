import type { Redactor } from '../cli/redact.js';
import type { SavedLogin } from './credentials-file.js';
import type { JsonAnswer } from './http.js';

/** A token endpoint's success (device code or refresh) as the login to save. */
export function loginFromTokenAnswer(
  answer: JsonAnswer,
  base: Pick<SavedLogin, 'server' | 'issuer' | 'clientId'> & { previousRefreshToken?: string | null },
  deps: { now: () => number; redactor: Redactor },
): SavedLogin | null {
  const { json } = answer;
  if (answer.status !== 200 || typeof json.access_token !== 'string') return null;
  const refreshToken = typeof json.refresh_token === 'string' ? json.refresh_token : (base.previousRefreshToken ?? null);
  deps.redactor.remember(json.access_token);
  deps.redactor.remember(refreshToken);
  return {
    server: base.server,
    issuer: base.issuer,
    clientId: base.clientId,
    accessToken: json.access_token,
    refreshToken,
    expiresAt: deps.now() + (typeof json.expires_in === 'number' ? json.expires_in : 0) * 1000,
    scope: typeof json.scope === 'string' ? json.scope : '',
  };
}
