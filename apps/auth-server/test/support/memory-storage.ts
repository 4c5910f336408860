import type { Credentials } from '../../src/accounts/credentials.js';
import type { GrantRecord, OidcAdapter, OidcPayload, OidcStorage } from '../../src/oidc/storage.js';

interface Row {
  type: string;
  id: string;
  payload: OidcPayload;
  grantId: string | null;
  uid: string | null;
  userCode: string | null;
  expiresAt: number | null;
  consumedAt: number | null;
}

/**
 * In-memory OIDC storage for tests that are not about storage (pages, CSRF,
 * client policy). Same semantics as the Prisma implementation in packages/db.
 */
export function memoryOidcStorage(): OidcStorage {
  const rows = new Map<string, Row>();
  const key = (type: string, id: string) => `${type}\u0000${id}`;
  const live = (row: Row | undefined): Row | undefined => (row && (row.expiresAt === null || row.expiresAt > Date.now()) ? row : undefined);
  const out = (row: Row | undefined): OidcPayload | undefined =>
    row === undefined ? undefined : { ...structuredClone(row.payload), ...(row.consumedAt === null ? {} : { consumed: Math.floor(row.consumedAt / 1000) }) };

  const adapterFor = (type: string): OidcAdapter => ({
    async upsert(id, payload, expiresIn) {
      rows.set(key(type, id), {
        type,
        id,
        payload: structuredClone(payload),
        grantId: typeof payload.grantId === 'string' ? payload.grantId : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        userCode: typeof payload.userCode === 'string' ? payload.userCode : null,
        expiresAt: expiresIn === undefined ? null : Date.now() + expiresIn * 1000,
        consumedAt: null,
      });
    },
    async find(id) {
      return out(live(rows.get(key(type, id))));
    },
    async findByUid(uid) {
      return out(live([...rows.values()].find((row) => row.type === type && row.uid === uid)));
    },
    async findByUserCode(userCode) {
      return out(live([...rows.values()].find((row) => row.type === type && row.userCode === userCode)));
    },
    async consume(id) {
      const row = live(rows.get(key(type, id)));
      if (row === undefined || row.consumedAt !== null) return false;
      row.consumedAt = Date.now();
      return true;
    },
    async destroy(id) {
      rows.delete(key(type, id));
    },
    async revokeByGrantId(grantId) {
      for (const [k, row] of rows) if (row.type === type && row.grantId === grantId) rows.delete(k);
    },
  });

  return {
    adapterFor,
    async listGrants(accountId) {
      const grants: GrantRecord[] = [];
      for (const row of rows.values()) {
        if (row.type !== 'Grant' || live(row) === undefined || row.payload.accountId !== accountId) continue;
        const issued = [...rows.values()]
          .filter((other) => other.grantId === row.id && typeof other.payload.iat === 'number')
          .map((other) => (other.payload.iat as number) * 1000);
        const openid = row.payload.openid as { scope?: string } | undefined;
        grants.push({
          grantId: row.id,
          accountId,
          clientId: String(row.payload.clientId),
          resources: (row.payload.resources as Record<string, string> | undefined) ?? {},
          openidScope: openid?.scope ?? null,
          grantedAt: new Date((row.payload.iat as number) * 1000),
          lastUsedAt: issued.length === 0 ? null : new Date(Math.max(...issued)),
          expiresAt: row.expiresAt === null ? null : new Date(row.expiresAt),
        });
      }
      return grants.sort((a, b) => b.grantedAt.getTime() - a.grantedAt.getTime());
    },
    async revokeGrant(grantId) {
      for (const [k, row] of rows) if (row.grantId === grantId || (row.type === 'Grant' && row.id === grantId)) rows.delete(k);
    },
    async purgeExpired(now) {
      let count = 0;
      for (const [k, row] of rows) {
        if (row.expiresAt !== null && row.expiresAt <= now.getTime()) {
          rows.delete(k);
          count += 1;
        }
      }
      return count;
    },
  };
}

/** Over the in-memory repositories' state, where sign-up stores the hash with the user. */
export function memoryCredentials(hashes: Map<string, string>): Credentials {
  return {
    findPasswordHash: async (userId) => hashes.get(userId) ?? null,
    setPasswordHash: async (userId, hash) => {
      hashes.set(userId, hash);
    },
  };
}
