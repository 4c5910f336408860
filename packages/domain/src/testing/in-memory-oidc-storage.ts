import { AuditKind } from '../entities/audit-event.js';
import type { GrantRecord } from '../ports/application-grants.js';
import type { OidcAdapter, OidcPayload, OidcStorage } from '../ports/oidc-storage.js';
import type { Clock } from '../ports/system.js';
import type { InMemoryState } from './in-memory-state.js';

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

/** Models whose issue time says when an application last obtained a token under a grant. */
const ISSUED_UNDER_GRANT = new Set(['AuthorizationCode', 'RefreshToken']);

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * OIDC storage in a Map, for tests that are not about storage (pages, CSRF,
 * client policy). It passes the same contract suite as packages/db's. `state` holds
 * the memberships and the audit trail a revocation records in (the repositories' fakes).
 */
export function createInMemoryOidcStorage(
  clock: Clock = { now: () => new Date() },
  state?: InMemoryState,
): OidcStorage {
  const rows = new Map<string, Row>();
  const key = (type: string, id: string) => `${type}\u0000${id}`;
  const now = () => clock.now().getTime();
  const live = (row: Row | undefined): Row | undefined => (row && (row.expiresAt === null || row.expiresAt > now()) ? row : undefined);
  const out = (row: Row | undefined): OidcPayload | undefined =>
    row === undefined ? undefined : { ...structuredClone(row.payload), ...(row.consumedAt === null ? {} : { consumed: Math.floor(row.consumedAt / 1000) }) };
  const find = (predicate: (row: Row) => boolean) => out(live([...rows.values()].find(predicate)));
  const dropGrant = (grantId: string) => {
    for (const [k, row] of rows) if (row.grantId === grantId || (row.type === 'Grant' && row.id === grantId)) rows.delete(k);
  };
  // The credentials' fakes (API tokens, CI trust policies) delete their grant through the shared state, as packages/db does in one transaction.
  if (state) state.dropOidcGrant = dropGrant;

  const adapterFor = (type: string): OidcAdapter => ({
    async upsert(id, payload, expiresIn) {
      const current = rows.get(key(type, id));
      rows.set(key(type, id), {
        type,
        id,
        payload: structuredClone(payload),
        grantId: text(payload.grantId),
        uid: text(payload.uid),
        userCode: text(payload.userCode),
        expiresAt: expiresIn === undefined ? null : now() + expiresIn * 1000,
        consumedAt: current?.consumedAt ?? null,
      });
    },
    find: async (id) => out(live(rows.get(key(type, id)))),
    findByUid: async (uid) => find((row) => row.type === type && row.uid === uid),
    findByUserCode: async (userCode) => find((row) => row.type === type && row.userCode === userCode),
    async consume(id) {
      const row = live(rows.get(key(type, id)));
      if (row === undefined || row.consumedAt !== null) return false;
      row.consumedAt = now();
      return true;
    },
    async destroy(id) {
      rows.delete(key(type, id));
    },
    async revokeByGrantId(grantId) {
      for (const [k, row] of rows) if (row.type === type && row.grantId === grantId) rows.delete(k);
    },
  });

  const toRecord = (row: Row): GrantRecord => {
    const issued = [...rows.values()]
      .filter((other) => other.grantId === row.id && ISSUED_UNDER_GRANT.has(other.type) && typeof other.payload.iat === 'number')
      .map((other) => (other.payload.iat as number) * 1000);
    const client = rows.get(key('Client', String(row.payload.clientId)));
    const clientName = text(client?.payload.client_name);
    return {
      grantId: row.id,
      accountId: String(row.payload.accountId),
      clientId: text(row.payload.clientId) ?? '',
      clientName: clientName !== null && clientName.trim() !== '' ? clientName : null,
      resources: (row.payload.resources as Record<string, string> | undefined) ?? {},
      openidScope: text((row.payload.openid as { scope?: unknown } | undefined)?.scope),
      grantedAt: new Date(typeof row.payload.iat === 'number' ? row.payload.iat * 1000 : 0),
      lastUsedAt: issued.length === 0 ? null : new Date(Math.max(...issued)),
      expiresAt: row.expiresAt === null ? null : new Date(row.expiresAt),
    };
  };

  return {
    adapterFor,
    async listGrants(accountId) {
      return [...rows.values()]
        .filter((row) => row.type === 'Grant' && live(row) !== undefined && row.payload.accountId === accountId)
        .map(toRecord)
        .sort((a, b) => b.grantedAt.getTime() - a.grantedAt.getTime() || a.grantId.localeCompare(b.grantId));
    },
    async revokeGrant(grantId, audit) {
      const existed = rows.has(key('Grant', grantId));
      dropGrant(grantId);
      if (!existed || !state) return;
      const organizationIds = state.memberships
        .filter((m) => m.userId === audit.actorId)
        .map((m) => m.organizationId)
        .sort();
      state.recordAudit(
        ...organizationIds.map((organizationId) => ({
          id: audit.newEventId(),
          organizationId,
          actorId: audit.actorId,
          via: null,
          kind: AuditKind.ApplicationRevoked,
          componentId: null,
          subjectUserId: null,
          details: { clientId: audit.clientId, clientName: audit.clientName },
          createdAt: audit.now,
        })),
      );
    },
    async purgeExpired(before) {
      let count = 0;
      for (const [k, row] of rows) {
        if (row.expiresAt !== null && row.expiresAt < before.getTime()) {
          rows.delete(k);
          count += 1;
        }
      }
      return count;
    },
  };
}
