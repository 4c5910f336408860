import { AuditKind, type Clock, type OidcAdapter, type OidcPayload, type OidcStorage } from '@cp/domain';
import { recordAudit } from '../repositories/audit-record.js';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { deleteGrant } from './grant-deletion.js';
import { listGrants } from './grant-records.js';

/*
 * The domain's `OidcStorage` port (oidc-provider's state, with the grants behind
 * connected applications) over the `OidcPayload` model: one row per model
 * instance, keyed by id and model name.
 */

type Row = { payload: Prisma.JsonValue; consumedAt: Date | null };

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

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
export function createOidcStorage(prisma: PrismaClient, clock: Clock = { now: () => new Date() }): OidcStorage {
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

    listGrants: (accountId) => listGrants(prisma, accountId, live()),

    async revokeGrant(grantId, audit) {
      await prisma.$transaction(async (tx) => {
        // A concurrent revocation deleted the grant first: it records the revocation, not this one.
        if (!(await deleteGrant(tx, grantId))) return;
        const memberships = await tx.membership.findMany({
          where: { userId: audit.actorId },
          select: { organizationId: true },
          orderBy: { organizationId: 'asc' },
        });
        await recordAudit(
          tx,
          ...memberships.map(({ organizationId }) => ({
            note: { eventId: audit.newEventId(), actorId: audit.actorId },
            organizationId,
            kind: AuditKind.ApplicationRevoked,
            details: { clientId: audit.clientId, clientName: audit.clientName },
            createdAt: audit.now,
          })),
        );
      });
    },

    async purgeExpired(now) {
      const { count } = await prisma.oidcPayload.deleteMany({ where: { expiresAt: { lt: now } } });
      return count;
    },
  };
}
