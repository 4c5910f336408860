import type { ActingCredential } from '@cp/domain';
import { errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { CREDENTIAL_CLAIM, readCredentialClaim } from './credential-claim.js';
import { AuthServerUnavailableError } from './jwks.js';

/** What a verified access token says. */
export interface TokenClaims {
  readonly subject: string;
  readonly scopes: readonly string[];
  readonly clientId: string;
  readonly grantId: string;
  readonly tokenId: string;
  readonly expiresAt: Date;
  /** Set when the token was issued in exchange for an API token or a CI token: the narrowing it acts under. */
  readonly credential?: ActingCredential;
}

/** Why a token was refused, for the `mcp_token_failures_total` metric (a bounded set). */
export type TokenFailureReason =
  | 'malformed'
  | 'expired'
  | 'wrong_audience'
  | 'wrong_issuer'
  | 'wrong_type'
  | 'invalid_claim'
  | 'missing_claim'
  | 'algorithm'
  | 'signature'
  | 'grant_revoked'
  | 'grant_mismatch';

export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
  constructor(
    readonly description: string,
    readonly reason: TokenFailureReason = 'malformed',
  ) {
    super(description);
  }
}

export interface TokenVerifier {
  verify(token: string): Promise<TokenClaims>;
}

/**
 * Only asymmetric algorithms the auth server uses (ES256, docs/decisions/0003-jwt-access-tokens-with-a-grant-check.md): an
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
        throw new InvalidTokenError('The access token is missing a required claim.', 'missing_claim');
      }
      if (scope !== undefined && typeof scope !== 'string') throw new InvalidTokenError('The access token scope is malformed.', 'invalid_claim');
      const credential = readCredentialClaim(payload[CREDENTIAL_CLAIM]);
      if (credential === 'malformed') throw new InvalidTokenError(`The access token's ${CREDENTIAL_CLAIM} claim is malformed.`, 'invalid_claim');
      return {
        subject: sub,
        scopes: (scope ?? '').split(' ').filter((item) => item.length > 0),
        clientId,
        grantId,
        tokenId: jti,
        expiresAt: new Date((exp ?? 0) * 1000),
        ...(credential === undefined ? {} : { credential }),
      };
    },
  };
}

function toTokenError(error: unknown): Error {
  if (error instanceof AuthServerUnavailableError) return error;
  if (error instanceof errors.JWKSTimeout) return new AuthServerUnavailableError('fetching the issuer JWKS timed out');
  if (error instanceof errors.JWTExpired) return new InvalidTokenError('The access token has expired.', 'expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return new InvalidTokenError('The access token was not issued for this resource.', 'wrong_audience');
    if (error.claim === 'iss') return new InvalidTokenError('The access token was not issued by the expected authorization server.', 'wrong_issuer');
    if (error.claim === 'typ') return new InvalidTokenError('The token is not an access token (typ must be at+jwt).', 'wrong_type');
    return new InvalidTokenError(`The access token has an invalid "${error.claim}" claim.`, 'invalid_claim');
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return new InvalidTokenError('The access token is signed with an algorithm that is not accepted.', 'algorithm');
  if (error instanceof errors.JOSEError) return new InvalidTokenError('The access token signature or format is invalid.', 'signature');
  // jose wraps network failures of the JWKS fetch as plain errors.
  if (error instanceof TypeError || (error instanceof Error && /fetch/i.test(error.message))) {
    return new AuthServerUnavailableError(`fetching the issuer JWKS failed: ${error.message}`);
  }
  return error instanceof Error ? error : new Error(String(error));
}
