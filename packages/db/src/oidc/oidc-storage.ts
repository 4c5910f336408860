import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

/*
 * oidc-provider's storage over the `OidcPayload` model (one row per model
 * instance, keyed by id and model name), for apps/auth-server. The types are
 * structural copies of the auth server's port (apps/auth-server/src/oidc/storage.ts):
 * this package does not import an app.
 */

export type OidcPayload = Record<string, unknown>;

/** oidc-provider's adapter contract, with `consume` reporting whether it won. */
export interface OidcAdapter {
  upsert(id: string, payload: OidcPayload, expiresInSeconds?: number): Promise<void>;
  find(id: string): Promise<OidcPayload | undefined>;
  findByUid(uid: string): Promise<OidcPayload | undefined>;
  findByUserCode(userCode: string): Promise<OidcPayload | undefined>;
  /** Atomic; false when the row was already consumed, expired or gone. */
  consume(id: string): Promise<boolean>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

export interface GrantRecord {
  readonly grantId: string;
  readonly accountId: string;
  readonly clientId: string;
  readonly resources: Readonly<Record<string, string>>;
  readonly openidScope: string | null;
  readonly grantedAt: Date;
  readonly lastUsedAt: Date | null;
  readonly expiresAt: Date | null;
}

export interface OidcStorage {
  adapterFor(model: string): OidcAdapter;
  listGrants(accountId: string): Promise<GrantRecord[]>;
  revokeGrant(grantId: string): Promise<void>;
  purgeExpired(now: Date): Promise<number>;
}

/** Models whose issue time says when an application last obtained a token under a grant. */
const ISSUED_UNDER_GRANT = ['AuthorizationCode', 'RefreshToken'];

type Row = { payload: Prisma.JsonValue; consumedAt: Date | null };

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const fromEpoch = (value: unknown): Date | null => (typeof value === 'number' ? new Date(value * 1000) : null);

/** The stored payload, plus `consumed` (epoch seconds) as oidc-provider expects it. */
function toPayload(row: Row | null): OidcPayload | undefined {
  if (row === null || typeof row.payload !== 'object' || row.payload === null || Array.isArray(row.payload)) return undefined;
  const payload: OidcPayload = { ...row.payload };
  if (row.consumedAt !== null) payload.consumed = Math.floor(row.consumedAt.getTime() / 1000);
  return payload;
}

/**
 * `clock` decides what has expired: rows past `expiresAt` are invisible at once,
 * and `purgeExpired` deletes them later.
 */
export function createOidcStorage(prisma: PrismaClient, clock: { now(): Date } = { now: () => new Date() }): OidcStorage {
  const live = () => ({ OR: [{ expiresAt: null }, { expiresAt: { gt: clock.now() } }] });
  const select = { payload: true, consumedAt: true } as const;

  const adapterFor = (type: string): OidcAdapter => ({
    async upsert(id, payload, expiresIn) {
      const columns = {
        payload: payload as Prisma.InputJsonObject,
        grantId: text(payload.grantId),
        userCode: text(payload.userCode),
        uid: text(payload.uid),
        expiresAt: expiresIn === undefined ? null : new Date(clock.now().getTime() + expiresIn * 1000),
      };
      await prisma.oidcPayload.upsert({ where: { id_type: { id, type } }, create: { id, type, ...columns }, update: columns });
    },
    async find(id) {
      return toPayload(await prisma.oidcPayload.findFirst({ where: { id, type, ...live() }, select }));
    },
    async findByUid(uid) {
      return toPayload(await prisma.oidcPayload.findFirst({ where: { uid, type, ...live() }, select }));
    },
    async findByUserCode(userCode) {
      return toPayload(await prisma.oidcPayload.findFirst({ where: { userCode, type, ...live() }, select }));
    },
    async consume(id) {
      // One conditional UPDATE: of two concurrent consumers exactly one sees a row.
      const { count } = await prisma.oidcPayload.updateMany({ where: { id, type, consumedAt: null, ...live() }, data: { consumedAt: clock.now() } });
      return count === 1;
    },
    async destroy(id) {
      await prisma.oidcPayload.deleteMany({ where: { id, type } });
    },
    async revokeByGrantId(grantId) {
      await prisma.oidcPayload.deleteMany({ where: { grantId, type } });
    },
  });

  return {
    adapterFor,

    async listGrants(accountId) {
      const grants = await prisma.oidcPayload.findMany({
        where: { type: 'Grant', payload: { path: ['accountId'], equals: accountId }, ...live() },
        select: { id: true, payload: true, expiresAt: true },
      });
      if (grants.length === 0) return [];
      const issued = await prisma.oidcPayload.findMany({
        where: { grantId: { in: grants.map((grant) => grant.id) }, type: { in: ISSUED_UNDER_GRANT } },
        select: { grantId: true, payload: true },
      });
      const lastUsed = new Map<string, number>();
      for (const row of issued) {
        const iat = (row.payload as { iat?: unknown } | null)?.iat;
        if (row.grantId !== null && typeof iat === 'number') lastUsed.set(row.grantId, Math.max(iat, lastUsed.get(row.grantId) ?? 0));
      }
      return grants
        .map((grant): GrantRecord => {
          const payload = (grant.payload ?? {}) as { clientId?: unknown; resources?: unknown; openid?: { scope?: unknown }; iat?: unknown };
          const resources = typeof payload.resources === 'object' && payload.resources !== null ? (payload.resources as Record<string, string>) : {};
          return {
            grantId: grant.id,
            accountId,
            clientId: text(payload.clientId) ?? '',
            resources,
            openidScope: text(payload.openid?.scope),
            grantedAt: fromEpoch(payload.iat) ?? new Date(0),
            lastUsedAt: fromEpoch(lastUsed.get(grant.id)),
            expiresAt: grant.expiresAt,
          };
        })
        .sort((a, b) => b.grantedAt.getTime() - a.grantedAt.getTime() || a.grantId.localeCompare(b.grantId));
    },

    async revokeGrant(grantId) {
      // One statement: the grant and everything issued under it go together.
      await prisma.oidcPayload.deleteMany({ where: { OR: [{ grantId }, { id: grantId, type: 'Grant' }] } });
    },

    async purgeExpired(now) {
      const { count } = await prisma.oidcPayload.deleteMany({ where: { expiresAt: { lt: now } } });
      return count;
    },
  };
}
