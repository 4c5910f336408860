import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose';
import type { ExchangeConfig } from '../config.js';
import { CiIssuerUnavailable } from './refusals.js';

export type Fetch = typeof fetch;

type KeyOptions = Pick<ExchangeConfig, 'issuerTimeoutMs' | 'issuerKeysMaxAgeMs' | 'issuerKeysCooldownMs'>;

interface Discovered {
  readonly jwksUri: string;
  readonly getKey: JWTVerifyGetKey;
  readonly discoveredAt: number;
}

/**
 * The signing keys of registered CI issuers, found through each issuer's discovery document
 * (`<issuer>/.well-known/openid-configuration` → `jwks_uri`) and never through the token (its `jku`,
 * `x5u` and `jwk` headers are not read). The key set is jose's remote set: cached for
 * `issuerKeysMaxAgeMs`, refetched once on an unknown `kid` unless it was fetched within
 * `issuerKeysCooldownMs`. The discovery document is read again once the keys' age is reached; a failure
 * is not remembered, so the next exchange tries again. Only called for an issuer already in the registry.
 */
export function createIssuerKeys(options: KeyOptions & { readonly fetch: Fetch; readonly now: () => number }) {
  const discovered = new Map<string, Promise<Discovered>>();

  const discover = async (issuer: string, previous: Discovered | undefined): Promise<Discovered> => {
    const url = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
    let document: { issuer?: unknown; jwks_uri?: unknown };
    try {
      const response = await options.fetch(url, {
        headers: { accept: 'application/json' },
        redirect: 'manual',
        signal: AbortSignal.timeout(options.issuerTimeoutMs),
      });
      if (response.status !== 200) throw new CiIssuerUnavailable(issuer, `its discovery document answered HTTP ${response.status}`);
      document = (await response.json()) as typeof document;
    } catch (error) {
      if (error instanceof CiIssuerUnavailable) throw error;
      throw new CiIssuerUnavailable(issuer, `its discovery document could not be read (${(error as Error).message})`);
    }
    if (document.issuer !== issuer) throw new CiIssuerUnavailable(issuer, 'its discovery document names another issuer');
    const jwksUri = typeof document.jwks_uri === 'string' ? URL.parse(document.jwks_uri) : null;
    // Keys are only taken from the issuer's own origin: a discovery document cannot send us elsewhere.
    if (jwksUri === null || jwksUri.origin !== new URL(issuer).origin) {
      throw new CiIssuerUnavailable(issuer, "its discovery document's jwks_uri is missing or not on the issuer's origin");
    }
    const getKey =
      previous?.jwksUri === jwksUri.href
        ? previous.getKey
        : createRemoteJWKSet(jwksUri, {
            timeoutDuration: options.issuerTimeoutMs,
            cacheMaxAge: options.issuerKeysMaxAgeMs,
            cooldownDuration: options.issuerKeysCooldownMs,
            [customFetch]: options.fetch,
          });
    return { jwksUri: jwksUri.href, getKey, discoveredAt: options.now() };
  };

  const current = async (issuer: string): Promise<Discovered> => {
    const pending = discovered.get(issuer);
    const known = pending === undefined ? undefined : await pending.catch(() => undefined);
    if (known !== undefined && options.now() - known.discoveredAt < options.issuerKeysMaxAgeMs) return known;
    // Concurrent exchanges share one discovery; a failed one is forgotten.
    if (pending !== undefined && discovered.get(issuer) !== pending) return current(issuer);
    const next = discover(issuer, known);
    discovered.set(issuer, next);
    next.catch(() => {
      if (discovered.get(issuer) === next) discovered.delete(issuer);
    });
    return next;
  };

  /** The key-lookup function for this issuer's tokens (jose's `JWTVerifyGetKey`). */
  return async (issuer: string): Promise<JWTVerifyGetKey> => (await current(issuer)).getKey;
}
