import { errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { AuthServerUnavailableError } from './jwks.js';

/** What a verified access token says. */
export interface TokenClaims {
  readonly subject: string;
  readonly scopes: readonly string[];
  readonly clientId: string;
  readonly grantId: string;
  readonly tokenId: string;
  readonly expiresAt: Date;
}

/** The token is not acceptable; `description` is safe to send in `error_description`. */
export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
  constructor(readonly description: string) {
    super(description);
  }
}

export interface TokenVerifier {
  verify(token: string): Promise<TokenClaims>;
}

/**
 * Only asymmetric algorithms the auth server uses (ES256, DESIGN.md "Tokens"): an
 * explicit list, so `none` and HMAC-with-the-public-key confusion cannot pass.
 */
export const ACCEPTED_ALGORITHMS = ['ES256'] as const;
/** oidc-provider puts no grant id in JWT access tokens by default; the auth server adds it as `grantId` (extraTokenClaims). */
export const GRANT_ID_CLAIM = 'grantId';
const MAX_TOKEN_LENGTH = 8192;

const nonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

export function createTokenVerifier(options: {
  issuer: string;
  audience: string;
  keys: JWTVerifyGetKey;
  clockToleranceSeconds?: number;
}): TokenVerifier {
  return {
    async verify(token) {
      if (token.length > MAX_TOKEN_LENGTH) throw new InvalidTokenError('The access token is malformed.');
      let payload;
      try {
        ({ payload } = await jwtVerify(token, options.keys, {
          issuer: options.issuer,
          audience: options.audience,
          algorithms: [...ACCEPTED_ALGORITHMS],
          typ: 'at+jwt',
          requiredClaims: ['exp', 'iat', 'sub', 'jti', 'client_id', GRANT_ID_CLAIM],
          clockTolerance: options.clockToleranceSeconds ?? 5,
        }));
      } catch (error) {
        throw toTokenError(error);
      }
      const { sub, scope, client_id: clientId, jti, exp } = payload;
      const grantId = payload[GRANT_ID_CLAIM];
      if (!nonEmptyString(sub) || !nonEmptyString(clientId) || !nonEmptyString(jti) || !nonEmptyString(grantId)) {
        throw new InvalidTokenError('The access token is missing a required claim.');
      }
      if (scope !== undefined && typeof scope !== 'string') throw new InvalidTokenError('The access token scope is malformed.');
      return {
        subject: sub,
        scopes: (scope ?? '').split(' ').filter((item) => item.length > 0),
        clientId,
        grantId,
        tokenId: jti,
        expiresAt: new Date((exp ?? 0) * 1000),
      };
    },
  };
}

function toTokenError(error: unknown): Error {
  if (error instanceof AuthServerUnavailableError) return error;
  if (error instanceof errors.JWKSTimeout) return new AuthServerUnavailableError('fetching the issuer JWKS timed out');
  if (error instanceof errors.JWTExpired) return new InvalidTokenError('The access token has expired.');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return new InvalidTokenError('The access token was not issued for this resource.');
    if (error.claim === 'iss') return new InvalidTokenError('The access token was not issued by the expected authorization server.');
    if (error.claim === 'typ') return new InvalidTokenError('The token is not an access token (typ must be at+jwt).');
    return new InvalidTokenError(`The access token has an invalid "${error.claim}" claim.`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return new InvalidTokenError('The access token is signed with an algorithm that is not accepted.');
  if (error instanceof errors.JOSEError) return new InvalidTokenError('The access token signature or format is invalid.');
  // jose wraps network failures of the JWKS fetch as plain errors.
  if (error instanceof TypeError || (error instanceof Error && /fetch/i.test(error.message))) {
    return new AuthServerUnavailableError(`fetching the issuer JWKS failed: ${error.message}`);
  }
  return error instanceof Error ? error : new Error(String(error));
}
