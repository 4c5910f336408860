/* eslint-disable @typescript-eslint/no-explicit-any -- OAuth responses are JSON, checked by assertions */
import { randomInt } from 'node:crypto';
import { ACCESS_TOKEN_TYPE, SubjectTokenType, TOKEN_EXCHANGE_GRANT } from '../../src/exchange/token-types.js';
import { CLI_CLIENT_ID } from '../../src/oidc/cli-client.js';
import { tokenRequest } from './oauth-client.js';

export { ACCESS_TOKEN_TYPE, SubjectTokenType, TOKEN_EXCHANGE_GRANT };

/** A numeric id no other test uses (CI trust policies are found by owner id across organizations). */
export const uniqueNumericId = (): string => String(randomInt(1_000_000, 2 ** 47));

/** `POST /token` with the token-exchange grant, as `cpc` sends it. */
export async function exchangeToken(
  issuer: string,
  subjectToken: string,
  type: string,
  extra: Record<string, string> = {},
): Promise<{ status: number; json: any }> {
  return tokenRequest(issuer, {
    grant_type: TOKEN_EXCHANGE_GRANT,
    client_id: CLI_CLIENT_ID,
    subject_token: subjectToken,
    subject_token_type: type,
    ...extra,
  });
}

export const exchangeCiToken = (issuer: string, token: string, extra: Record<string, string> = {}) =>
  exchangeToken(issuer, token, SubjectTokenType.IdToken, extra);

export const exchangeApiToken = (issuer: string, secret: string, extra: Record<string, string> = {}) =>
  exchangeToken(issuer, secret, SubjectTokenType.ApiToken, extra);
