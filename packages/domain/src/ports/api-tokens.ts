import type { AuditNote } from '../entities/audit-event.js';
import type { ApiToken, CredentialScope } from '../entities/credential.js';

export interface NewApiToken {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  readonly prefix: string;
  /** rules/api-tokens.ts `hashApiToken` of the secret; the secret itself is never stored. */
  readonly secretHash: string;
  readonly scope: CredentialScope;
  readonly createdBy: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** A token found by its secret's hash, for the exchange at the token endpoint. */
export interface PresentedApiToken {
  readonly token: ApiToken;
}

export interface ApiTokens {
  /**
   * Atomic: adds the token unless its creator already holds `limit` unrevoked tokens in the organization
   * that are unexpired at `token.createdAt` (the time of the creation, not the database's clock), also
   * under parallel calls from several processes. Writes an ApiTokenCreated audit row
   * (id, name, prefix, scope, expiry; never the secret) with the token only.
   */
  create(token: NewApiToken, limit: number, audit: AuditNote): Promise<ApiToken | 'limit-reached'>;
  /** The organization's tokens, revoked and expired ones included, newest first. */
  listForOrganization(organizationId: string): Promise<ApiToken[]>;
  /**
   * Atomic: marks the token revoked (the first revocation's time stays) and deletes its OAuth grant with
   * every token stored under it, so its access tokens stop at the next grant check. null when the
   * organization has no such token. Only the first revocation writes an ApiTokenRevoked audit row.
   */
  revoke(input: { organizationId: string; tokenId: string; now: Date; audit: AuditNote }): Promise<ApiToken | null>;
  /** The token with this secret hash, whatever its state (the caller decides what revoked or expired means); null when none. */
  findBySecretHash(secretHash: string): Promise<ApiToken | null>;
  /** Sets `last_used_at` (never moves it back). */
  touch(tokenId: string, now: Date): Promise<void>;
  /**
   * Atomic compare-and-set: records `grantId` as the token's OAuth grant when the recorded one is still
   * `expected` (null: none yet; the old id: it expired or was lost). Answers the grant id that holds, so an
   * exchange that lost a race drops its own grant and uses the winner's.
   */
  attachGrant(input: { tokenId: string; grantId: string; expected: string | null }): Promise<string | null>; // null: the token is gone
}
