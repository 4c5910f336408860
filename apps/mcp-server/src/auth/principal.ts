import { LRUCache } from 'lru-cache';
import type { ActingCredential, Actor, GrantLookup, User } from '@cp/domain';
import { InvalidTokenError, type TokenClaims, type TokenFailureReason } from './token-verifier.js';

/** The signed-in caller of one request. */
export interface Principal {
  readonly userId: string;
  readonly email: string;
  readonly scopes: ReadonlySet<string>;
  /** Space-separated, as granted. */
  readonly scope: string;
  readonly clientId: string;
  readonly grantId: string;
  /** An API token's or a CI trust policy's narrowing, when the token was exchanged for one (docs/cli-and-ci.md). */
  readonly credential?: ActingCredential;
}

/** The domain's actor for the principal: the person, narrowed by the credential the token was exchanged for, if any. */
export const actorOfPrincipal = ({ userId, credential }: Principal): Actor => (credential === undefined ? { userId } : { userId, credential });

type Check = { ok: true; email: string } | { ok: false; reason: string; failure: TokenFailureReason };

interface Subject {
  readonly grantId: string;
  readonly userId: string;
  readonly clientId: string;
}

/**
 * Turns verified claims into a principal: the grant must still exist (not revoked)
 * and belong to the token's subject and client, and the user must exist. A well-signed
 * token naming someone else's grant would otherwise borrow that grant's life (it is
 * what revocation deletes). Answers are cached for at most `ttlSeconds` (<= 30), so a
 * revocation takes effect within that bound, and concurrent requests with the same
 * token share one lookup.
 */
export function createPrincipalResolver(options: {
  grants: GrantLookup;
  findUser: (userId: string) => Promise<User | null>;
  ttlSeconds: number;
}): (claims: TokenClaims) => Promise<Principal> {
  const check = async ({ grantId, userId, clientId }: Subject): Promise<Check> => {
    const [grant, user] = await Promise.all([options.grants.find(grantId), options.findUser(userId)]);
    if (grant === null) return { ok: false, reason: 'The authorization for this token was revoked.', failure: 'grant_revoked' };
    if (grant.accountId !== userId || grant.clientId !== clientId) {
      return { ok: false, reason: "The access token's grant does not belong to this user and client.", failure: 'grant_mismatch' };
    }
    if (user === null) return { ok: false, reason: 'The user of this token no longer exists.', failure: 'grant_revoked' };
    return { ok: true, email: user.email };
  };
  const cache =
    options.ttlSeconds > 0
      ? new LRUCache<string, Check, Subject>({
          max: 10_000,
          ttl: options.ttlSeconds * 1000,
          fetchMethod: (_key, _stale, { context }) => check(context),
        })
      : null;

  return async (claims) => {
    const subject: Subject = { grantId: claims.grantId, userId: claims.subject, clientId: claims.clientId };
    const key = JSON.stringify([subject.grantId, subject.userId, subject.clientId]);
    const result = cache ? await cache.fetch(key, { context: subject }) : await check(subject);
    if (result === undefined || !result.ok) {
      throw new InvalidTokenError(result?.reason ?? 'The access token could not be checked.', result?.failure ?? 'grant_revoked');
    }
    return {
      userId: claims.subject,
      email: result.email,
      scopes: new Set(claims.scopes),
      scope: claims.scopes.join(' '),
      clientId: claims.clientId,
      grantId: claims.grantId,
      ...(claims.credential === undefined ? {} : { credential: claims.credential }),
    };
  };
}
