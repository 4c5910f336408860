import { isUnavailable } from '@cp/domain';
import type { Request } from 'express';
import { AuthServerUnavailableError } from './jwks.js';
import type { Principal } from './principal.js';
import { InvalidTokenError, type TokenClaims, type TokenFailureReason, type TokenVerifier } from './token-verifier.js';

export type AuthOutcome =
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'authenticated'; readonly principal: Principal }
  | { readonly kind: 'invalid'; readonly description: string; readonly reason: TokenFailureReason | 'bad_header' }
  /** A dependency of authentication is down (the authorization server, the database): `message` is for the client. */
  | { readonly kind: 'unavailable'; readonly reason: string; readonly message: string };

const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * Reads the bearer token from the Authorization header only: RFC 6750 also allows
 * form and query parameters, but a token in a URL ends up in logs and histories,
 * so `?access_token=` is ignored (the request is then anonymous).
 */
export async function authenticate(
  req: Request,
  tokens: TokenVerifier,
  resolvePrincipal: (claims: TokenClaims) => Promise<Principal>,
): Promise<AuthOutcome> {
  const header = req.headers.authorization;
  if (header === undefined || header === '') return { kind: 'anonymous' };
  const match = BEARER.exec(header);
  if (match?.[1] === undefined) return { kind: 'invalid', description: 'The Authorization header must be "Bearer <access token>".', reason: 'bad_header' };
  try {
    const claims = await tokens.verify(match[1]);
    return { kind: 'authenticated', principal: await resolvePrincipal(claims) };
  } catch (error) {
    if (error instanceof InvalidTokenError) return { kind: 'invalid', description: error.description, reason: error.reason };
    if (error instanceof AuthServerUnavailableError) {
      return { kind: 'unavailable', reason: error.message, message: 'The authorization server is unavailable; retry in a few seconds.' };
    }
    if (isUnavailable(error)) return { kind: 'unavailable', reason: 'database unavailable', message: error.message };
    throw error;
  }
}
