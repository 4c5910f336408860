import { LRUCache } from 'lru-cache';
import type { TokenClaims, TokenVerifier } from './token-verifier.js';

/**
 * Remembers tokens that passed verification until they expire. A client sends
 * the same access token on every request, and an ES256 signature check costs
 * more CPU than a whole get_component (bench/README.md). A verified token's claims are a pure function of the token
 * (signature, issuer, audience, typ): only time can change the answer, so an
 * entry lives no longer than the token's `exp`. The key is the whole token, so
 * an entry can only ever answer for the exact token that was verified.
 * Refusals are not remembered (each one still pays, and the per-IP limit applies).
 * Revocation is not this cache's business: the grant check runs on every request
 * (principal.ts, with its own bounded cache).
 */
export function withVerifiedTokenCache(
  verifier: TokenVerifier,
  options: { max?: number; now?: () => number } = {},
): TokenVerifier {
  const now = options.now ?? Date.now;
  const cache = new LRUCache<string, TokenClaims>({ max: options.max ?? 10_000 });
  return {
    async verify(token) {
      const cached = cache.get(token);
      if (cached !== undefined) {
        if (cached.expiresAt.getTime() > now()) return cached;
        cache.delete(token);
      }
      const claims = await verifier.verify(token);
      const ttl = claims.expiresAt.getTime() - now();
      if (ttl > 0) cache.set(token, claims, { ttl });
      return claims;
    },
  };
}
