/** A grant a user gave an OAuth application (oidc-provider's `Grant`), as connected applications show it. */
export interface GrantRecord {
  readonly grantId: string;
  readonly accountId: string;
  readonly clientId: string;
  /** The name a registered client gave itself; null for a configured client, a blank name or a client gone. */
  readonly clientName: string | null;
  /** Scopes granted per resource indicator (oidc-provider's `resources`). */
  readonly resources: Readonly<Record<string, string>>;
  /** Granted OpenID scopes (`openid.scope`), if any. */
  readonly openidScope: string | null;
  readonly grantedAt: Date;
  /** The newest code or refresh token issued under the grant: the last time the application got a token. */
  readonly lastUsedAt: Date | null;
  readonly expiresAt: Date | null;
}

/** What a revocation's audit rows need: one row per organization, so one id each. */
export interface ApplicationRevocationAudit {
  readonly actorId: string;
  readonly newEventId: () => string;
  readonly now: Date;
  readonly clientId: string;
  readonly clientName: string;
}

/** The persistence of connected applications: a user's grants, read and revoked. */
export interface ApplicationGrants {
  /** The account's unexpired grants, newest first (then by grant id). */
  listGrants(accountId: string): Promise<GrantRecord[]>;
  /**
   * Atomic: deletes the grant and every code and token stored under it and, in the same
   * transaction, writes an ApplicationRevoked audit row in each organization the actor
   * belongs to (the grant reached all of them). Revoking a missing grant is not an error
   * and records nothing.
   */
  revokeGrant(grantId: string, audit: ApplicationRevocationAudit): Promise<void>;
}
