import { LRUCache } from 'lru-cache';
import type { GrantLookup, User } from '@cp/domain';
import { InvalidTokenError, type TokenClaims } from './token-verifier.js';

/** The signed-in caller of one request. */
export interface Principal {
  readonly userId: string;
  readonly email: string;
  readonly scopes: ReadonlySet<string>;
  /** Space-separated, as granted. */
  readonly scope: string;
  readonly clientId: string;
  readonly grantId: string;
}

type Check = { ok: true; email: string } | { ok: false; reason: string };

/**
 * Turns verified claims into a principal: the grant must still exist (not revoked)
 * and the user must exist. Answers are cached for at most `ttlSeconds` (<= 30), so
 * a revocation takes effect within that bound, and concurrent requests with the
 * same token share one lookup.
 */
export function createPrincipalResolver(options: {
  grants: GrantLookup;
  findUser: (userId: string) => Promise<User | null>;
  ttlSeconds: number;
}): (claims: TokenClaims) => Promise<Principal> {
  const check = async (grantId: string, userId: string): Promise<Check> => {
    const [grantExists, user] = await Promise.all([options.grants.exists(grantId), options.findUser(userId)]);
    if (!grantExists) return { ok: false, reason: 'The authorization for this token was revoked.' };
    if (user === null) return { ok: false, reason: 'The user of this token no longer exists.' };
    return { ok: true, email: user.email };
  };
  const cache =
    options.ttlSeconds > 0
      ? new LRUCache<string, Check>({
          max: 10_000,
          ttl: options.ttlSeconds * 1000,
          fetchMethod: async (key) => {
            const [grantId = '', userId = ''] = key.split('\u0000');
            return check(grantId, userId);
          },
        })
      : null;

  return async (claims) => {
    const key = `${claims.grantId}\u0000${claims.subject}`;
    const result = cache ? await cache.fetch(key) : await check(claims.grantId, claims.subject);
    if (result === undefined || !result.ok) {
      throw new InvalidTokenError(result?.reason ?? 'The access token could not be checked.', 'grant_revoked');
    }
    return {
      userId: claims.subject,
      email: result.email,
      scopes: new Set(claims.scopes),
      scope: claims.scopes.join(' '),
      clientId: claims.clientId,
      grantId: claims.grantId,
    };
  };
}
