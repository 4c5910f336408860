import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK } from 'jose';

/** A private ES256 signing key as oidc-provider wants it (see README "Signing keys"). */
export interface SigningKey extends JWK {
  readonly kty: 'EC';
  readonly crv: 'P-256';
  readonly kid: string;
  readonly alg: 'ES256';
  readonly use: 'sig';
}

export class SigningKeyError extends Error {
  override readonly name = 'SigningKeyError';
}

const isText = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * Parses a JWK Set of private ES256 keys. Every key needs a `kid`: tokens name the
 * key that signed them, and rotation is done by editing this list (the first key
 * signs; the others only verify).
 */
export function parseSigningKeys(text: string): SigningKey[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SigningKeyError('must be a JSON Web Key Set ({"keys":[...]})');
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) {
    throw new SigningKeyError('must be a JSON Web Key Set with at least one key');
  }
  const kids = new Set<string>();
  return keys.map((key: unknown, index) => {
    const jwk = (key ?? {}) as Record<string, unknown>;
    const where = `key ${index + 1}`;
    if (jwk.kty !== 'EC' || jwk.crv !== 'P-256') throw new SigningKeyError(`${where}: must be an EC P-256 key (ES256)`);
    if (!isText(jwk.x) || !isText(jwk.y)) throw new SigningKeyError(`${where}: is missing "x" or "y"`);
    if (!isText(jwk.d)) throw new SigningKeyError(`${where}: must be a private key (with "d")`);
    if (!isText(jwk.kid)) throw new SigningKeyError(`${where}: needs a "kid"`);
    if (kids.has(jwk.kid)) throw new SigningKeyError(`${where}: duplicate kid "${jwk.kid}"`);
    if (jwk.alg !== undefined && jwk.alg !== 'ES256') throw new SigningKeyError(`${where}: "alg" must be ES256`);
    if (jwk.use !== undefined && jwk.use !== 'sig') throw new SigningKeyError(`${where}: "use" must be sig`);
    kids.add(jwk.kid);
    return { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, d: jwk.d, kid: jwk.kid, alg: 'ES256', use: 'sig' };
  });
}

/** A new ES256 key; its kid is its RFC 7638 thumbprint. */
export async function generateSigningKey(): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(jwk);
  return { ...jwk, kty: 'EC', crv: 'P-256', kid, alg: 'ES256', use: 'sig' };
}

/** The public half of each key, as the JWKS endpoint publishes it. */
export const publicKeys = (keys: readonly SigningKey[]): JWK[] =>
  keys.map(({ kty, crv, x, y, kid, alg, use }) => ({ kty, crv, x, y, kid, alg, use }));
