import { LRUCache } from 'lru-cache';
import type { TokenClaims, TokenVerifier } from './token-verifier.js';

interface Verified {
  readonly claims: TokenClaims;
  /** When this entry stops answering: the token's `exp`, or the maximum age if sooner. */
  readonly until: number;
}

/**
 * Remembers tokens that passed verification for a few minutes. A client sends the
 * same access token on every request, and an ES256 signature check costs more CPU
 * than a whole get_component (bench/README.md). An entry lives until the token's
 * `exp` or `maxAgeSeconds`, whichever comes first: the signature was checked against
 * the keys of that moment, and a key the issuer removes from its JWKS must stop
 * working within minutes, not when the token expires (access tokens may live for days).
 * The key is the whole token, so an entry only ever answers for the exact token that
 * was verified. Refusals are not remembered (each one still pays, and the per-IP
 * limit applies). Revocation is not this cache's business: the grant check runs on
 * every request (principal.ts, with its own bounded cache).
 */
export function withVerifiedTokenCache(
  verifier: TokenVerifier,
  options: { maxAgeSeconds: number; max?: number; now?: (() => number) | undefined },
): TokenVerifier {
  const now = options.now ?? Date.now;
  const cache = new LRUCache<string, Verified>({ max: options.max ?? 10_000 });
  return {
    async verify(token) {
      const cached = cache.get(token);
      if (cached !== undefined) {
        if (cached.until > now()) return cached.claims;
        cache.delete(token);
      }
      const claims = await verifier.verify(token);
      const verifiedAt = now();
      const until = Math.min(claims.expiresAt.getTime(), verifiedAt + options.maxAgeSeconds * 1000);
      if (until > verifiedAt) cache.set(token, { claims, until }, { ttl: until - verifiedAt });
      return claims;
    },
  };
}
