/**
 * Ports for oidc-provider's state (packages/db implements them over Prisma).
 * `adapterFor` follows oidc-provider's adapter contract; the two account-page
 * queries and the purge are what the contract lacks.
 */

/** What oidc-provider stores for one model instance (a token, a grant, a session, a client...). */
export type OidcPayload = Record<string, unknown>;

export interface OidcAdapter {
  upsert(id: string, payload: OidcPayload, expiresInSeconds?: number): Promise<void>;
  find(id: string): Promise<OidcPayload | undefined>;
  findByUid(uid: string): Promise<OidcPayload | undefined>;
  findByUserCode(userCode: string): Promise<OidcPayload | undefined>;
  /**
   * Atomic: marks the instance consumed. Returns false when it already was (or is
   * gone), so two concurrent uses of one code or refresh token cannot both succeed.
   */
  consume(id: string): Promise<boolean>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

/** A grant as the "Connected applications" page shows it. */
export interface GrantRecord {
  readonly grantId: string;
  readonly accountId: string;
  readonly clientId: string;
  /** Scopes granted per resource indicator (oidc-provider's `resources`). */
  readonly resources: Readonly<Record<string, string>>;
  /** Granted OpenID scopes (`openid.scope`), if any. */
  readonly openidScope: string | null;
  readonly grantedAt: Date;
  /** The newest code or refresh token issued under the grant: the last time the app got a token. */
  readonly lastUsedAt: Date | null;
  readonly expiresAt: Date | null;
}

export interface OidcStorage {
  /** oidc-provider's adapter factory, one adapter per model name ("Grant", "Session", ...). */
  adapterFor(model: string): OidcAdapter;
  /** The account's unexpired grants, newest first. */
  listGrants(accountId: string): Promise<GrantRecord[]>;
  /** Atomic: deletes the grant and every code and token stored under it. */
  revokeGrant(grantId: string): Promise<void>;
  /** Deletes rows that expired before `now`; returns how many. */
  purgeExpired(now: Date): Promise<number>;
}
