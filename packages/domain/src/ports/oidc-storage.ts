import type { ApplicationGrants } from './application-grants.js';

/** What oidc-provider stores for one model instance (a token, a grant, a session, a client...). */
export type OidcPayload = Record<string, unknown>;

/**
 * oidc-provider's adapter contract for one model, with `consume` reporting
 * whether it won. Rows past their lifetime are invisible at once.
 */
export interface OidcAdapter {
  /** Creates or replaces; `expiresInSeconds` absent means the row never expires (registered clients). */
  upsert(id: string, payload: OidcPayload, expiresInSeconds?: number): Promise<void>;
  /** The payload, with `consumed` (epoch seconds) once consumed. */
  find(id: string): Promise<OidcPayload | undefined>;
  findByUid(uid: string): Promise<OidcPayload | undefined>;
  findByUserCode(userCode: string): Promise<OidcPayload | undefined>;
  /**
   * Atomic: marks the instance consumed. Returns false when it already was (or is
   * gone), so two concurrent uses of one code or refresh token cannot both succeed.
   */
  consume(id: string): Promise<boolean>;
  destroy(id: string): Promise<void>;
  /** Deletes this model's instances issued under the grant. */
  revokeByGrantId(grantId: string): Promise<void>;
}

/**
 * oidc-provider's state, for the auth server (packages/db implements it over one
 * table). It holds the grants, so it answers connected applications' queries too.
 */
export interface OidcStorage extends ApplicationGrants {
  /** oidc-provider's adapter factory, one adapter per model name ("Grant", "Session", ...). */
  adapterFor(model: string): OidcAdapter;
  /** Deletes rows that expired before `now`; returns how many. */
  purgeExpired(now: Date): Promise<number>;
}
