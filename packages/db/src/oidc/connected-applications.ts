import type { GrantRecord, OidcPayload } from './oidc-storage.js';

/**
 * "Connected applications": the one implementation behind the auth server's
 * `/account` page and the dashboard's (README of each). It reads the grants a
 * user gave (oidc-provider's `Grant` rows) and revokes one together with every
 * code and token issued under it. It works over any OIDC storage with these
 * three calls (the Prisma one, and the auth server's in-memory test double).
 */
export interface GrantStore {
  listGrants(accountId: string): Promise<GrantRecord[]>;
  revokeGrant(grantId: string): Promise<void>;
  adapterFor(model: string): { find(id: string): Promise<OidcPayload | undefined> };
}

export interface ConnectedApplication {
  readonly grantId: string;
  readonly clientId: string;
  readonly clientName: string;
  /** Every scope granted, whichever resource it was granted for, plus `openid` / `offline_access`. */
  readonly scopes: readonly string[];
  readonly grantedAt: Date;
  /** The last time the application got a code or a refresh token under this grant. */
  readonly lastUsedAt: Date | null;
}

export interface ConnectedApplicationsOptions {
  /** Names of clients that are configured rather than registered (not stored as `Client` rows). */
  readonly clientNames?: Readonly<Record<string, string>>;
  /**
   * First-party clients (the dashboard): signing in to them is not "connecting an
   * application", so their grants are neither listed nor revocable here.
   */
  readonly hiddenClientIds?: readonly string[];
}

export interface ConnectedApplications {
  list(accountId: string): Promise<ConnectedApplication[]>;
  /** False (nothing changed) when the grant is not one of this account's listed applications. */
  revoke(accountId: string, grantId: string): Promise<boolean>;
}

const scopesOf = (grant: GrantRecord): string[] => {
  const scopes = Object.values(grant.resources).flatMap((scope) => scope.split(' '));
  for (const scope of (grant.openidScope ?? '').split(' ')) if (scope === 'openid' || scope === 'offline_access') scopes.push(scope);
  return [...new Set(scopes.filter((scope) => scope.length > 0))];
};

export function connectedApplications(store: GrantStore, options: ConnectedApplicationsOptions = {}): ConnectedApplications {
  const hidden = new Set(options.hiddenClientIds ?? []);
  const clients = store.adapterFor('Client');
  const visibleGrants = async (accountId: string) => (await store.listGrants(accountId)).filter((grant) => !hidden.has(grant.clientId));
  const nameOf = async (clientId: string): Promise<string> => {
    const configured = options.clientNames?.[clientId];
    if (configured !== undefined) return configured;
    const name = (await clients.find(clientId).catch(() => undefined))?.client_name;
    return typeof name === 'string' && name.trim() !== '' ? name : `Unnamed application (${clientId})`;
  };

  return {
    async list(accountId) {
      return Promise.all(
        (await visibleGrants(accountId)).map(async (grant) => ({
          grantId: grant.grantId,
          clientId: grant.clientId,
          clientName: await nameOf(grant.clientId),
          scopes: scopesOf(grant),
          grantedAt: grant.grantedAt,
          lastUsedAt: grant.lastUsedAt,
        })),
      );
    },
    async revoke(accountId, grantId) {
      const owned = (await visibleGrants(accountId)).some((grant) => grant.grantId === grantId);
      if (!owned) return false;
      await store.revokeGrant(grantId);
      return true;
    },
  };
}
