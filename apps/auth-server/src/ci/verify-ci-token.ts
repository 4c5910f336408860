import { compactVerify, decodeJwt, decodeProtectedHeader, errors as joseErrors, type JWTVerifyGetKey } from 'jose';
import type { ExchangeConfig } from '../config.js';
import { type CiIssuer, findCiIssuer } from './issuers.js';
import { createIssuerKeys, type Fetch } from './issuer-keys.js';
import { CiIssuerUnavailable, ExchangeRefusal, shown } from './refusals.js';

/** A CI token whose header, issuer, signature, audience and times were checked; its other claims are the policy's to match. */
export interface VerifiedCiToken {
  readonly issuer: CiIssuer;
  /** The whole payload, as signed. */
  readonly claims: Readonly<Record<string, unknown>>;
  readonly jti: string;
  readonly expiresAt: Date;
}

export interface CiTokenVerifierDeps {
  /** The registry (issuers.ts): production's, or a test's stand-in. */
  readonly issuers: readonly CiIssuer[];
  /** The only accepted `aud`: this auth server's issuer. */
  readonly audience: string;
  readonly config: Pick<
    ExchangeConfig,
    'clockToleranceSeconds' | 'maxCiTokenLifetimeSeconds' | 'issuerTimeoutMs' | 'issuerKeysMaxAgeMs' | 'issuerKeysCooldownMs'
  >;
  /** Default: the global fetch. */
  readonly fetch?: Fetch;
  /** Milliseconds; default Date.now. */
  readonly now?: () => number;
}

export type CiTokenVerifier = (token: string) => Promise<VerifiedCiToken>;

const refuse = (claim: string, description: string): never => {
  throw new ExchangeRefusal(claim, description);
};

const isoTime = (seconds: number): string => new Date(seconds * 1000).toISOString();

/**
 * Checks a CI OIDC token in the contract's order (docs/cli-and-ci.md "Checks, in order", 1 to 5), each
 * refusal an ExchangeRefusal naming its claim: the header (`alg` RS256 only, `kid`), `iss` against the
 * registry before any key is fetched, the signature with the issuer's discovered keys, `aud`, then
 * `exp`/`nbf`/`iat` with leeway and the token's lifetime. `jti` must be present; whether it was seen is
 * the exchange's check, after the policy.
 */
export function createCiTokenVerifier(deps: CiTokenVerifierDeps): CiTokenVerifier {
  const now = deps.now ?? Date.now;
  const keysFor = createIssuerKeys({ ...deps.config, fetch: deps.fetch ?? fetch, now });
  const leeway = deps.config.clockToleranceSeconds;

  return async (token) => {
    const header = readHeader(token);
    if (header.alg !== 'RS256') refuse('alg', `alg ${shown(header.alg)} is not accepted: CI tokens must be signed with RS256`);
    if (typeof header.kid !== 'string' || header.kid === '') refuse('kid', 'kid is missing from the token header');

    const unverifiedIss = readUnverifiedIssuer(token);
    const issuer = (typeof unverifiedIss === 'string' ? findCiIssuer(deps.issuers, unverifiedIss) : undefined) ?? refuse('iss', `iss ${shown(unverifiedIss)} is not a CI issuer trusted here (${deps.issuers.map((entry) => entry.issuer).join(', ')})`);

    const claims = await verifySignature(token, issuer, await keysFor(issuer.issuer), String(header.kid));

    const aud = claims.aud;
    if (Array.isArray(aud)) refuse('aud', `aud must be a single audience, '${deps.audience}'; the token names ${aud.length}`);
    if (aud !== deps.audience) refuse('aud', `aud ${shown(aud)} is not this server: request the CI token with audience '${deps.audience}'`);

    const at = Math.floor(now() / 1000);
    const { exp, nbf, iat } = claims;
    if (typeof exp !== 'number') return refuse('exp', 'exp is missing');
    if (typeof iat !== 'number') return refuse('iat', 'iat is missing');
    if (nbf !== undefined && typeof nbf !== 'number') refuse('nbf', 'nbf must be a number');
    if (exp + leeway <= at) refuse('exp', `exp: the token expired at ${isoTime(exp)}`);
    if (typeof nbf === 'number' && nbf - leeway > at) refuse('nbf', `nbf: the token is not valid before ${isoTime(nbf)}`);
    if (iat - leeway > at) refuse('iat', `iat: the token was issued in the future (${isoTime(iat)})`);
    if (exp - iat > deps.config.maxCiTokenLifetimeSeconds) {
      refuse('exp', `exp: the token lives ${exp - iat} s from iat, more than the ${deps.config.maxCiTokenLifetimeSeconds} s accepted`);
    }
    const jti = claims.jti;
    if (typeof jti !== 'string' || jti === '') return refuse('jti', 'jti is missing: a token without an id could be replayed');
    return { issuer, claims, jti, expiresAt: new Date(exp * 1000) };
  };
}

function readHeader(token: string): Record<string, unknown> {
  try {
    return decodeProtectedHeader(token);
  } catch {
    return refuse('subject_token', 'subject_token is not a JWT');
  }
}

function readUnverifiedIssuer(token: string): unknown {
  try {
    return decodeJwt(token).iss;
  } catch {
    return refuse('subject_token', 'subject_token is not a JWT');
  }
}

async function verifySignature(token: string, issuer: CiIssuer, getKey: JWTVerifyGetKey, kid: string): Promise<Record<string, unknown>> {
  let payload: Uint8Array;
  try {
    ({ payload } = await compactVerify(token, getKey, { algorithms: ['RS256'] }));
  } catch (error) {
    if (error instanceof joseErrors.JWKSNoMatchingKey || error instanceof joseErrors.JWKSMultipleMatchingKeys) {
      return refuse('kid', `kid ${shown(kid)} is not one of the signing keys of ${issuer.issuer}`);
    }
    if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
      return refuse('signature', `signature: the token is not signed by the key ${shown(kid)} of ${issuer.issuer}`);
    }
    if (error instanceof joseErrors.JWSInvalid || error instanceof joseErrors.JOSENotSupported) {
      return refuse('subject_token', `subject_token is not a valid JWS (${error.message})`);
    }
    if (error instanceof CiIssuerUnavailable) throw error;
    // The key set could not be fetched or read (timeout, refused connection, not 200, not a key set).
    throw new CiIssuerUnavailable(issuer.issuer, `its keys could not be fetched (${(error as Error).message})`);
  }
  let claims: unknown;
  try {
    claims = JSON.parse(new TextDecoder().decode(payload));
  } catch {
    return refuse('subject_token', 'subject_token has no JSON payload');
  }
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) return refuse('subject_token', 'subject_token has no JSON object payload');
  return claims as Record<string, unknown>;
}
