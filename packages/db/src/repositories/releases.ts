import { isManager, isUuid, notFound, protectedEnvironment, type Releases, type Role } from '@cp/domain';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { toRelease, toReleaseEvent } from './mappers.js';

const withEnvironmentName = { environment: { select: { name: true } } } as const;

export function createReleases(prisma: PrismaClient): Releases {
  return {
    async publish({ eventId, componentId, environmentId, variantId, releasedBy, now, enforceProtection }) {
      return prisma.$transaction(async (tx) => {
        // Publishes of one component take turns (a row lock on the component that
        // does not block variant inserts), so each event records the variant it
        // really replaced, even for the very first release of an environment.
        const locked = await tx.$queryRaw<unknown[]>`
          SELECT id FROM components WHERE id = ${componentId}::uuid FOR NO KEY UPDATE`;
        if (locked.length === 0) throw notFound('Component', componentId);
        if (enforceProtection) await refuseUnlessAllowed(tx, environmentId, releasedBy);

        const key = { componentId_environmentId: { componentId, environmentId } };
        const previous = await tx.release.findUnique({ where: key, select: { variantId: true, releasedAt: true } });
        // Publishes take the lock in their own order, not in the order their clocks were read:
        // an event is never dated before the one it follows, so history's (releasedAt, seq) order is the chain's.
        const releasedAt = previous && previous.releasedAt > now ? previous.releasedAt : now;
        const current = { variantId, releasedById: releasedBy, releasedAt };
        await tx.release.upsert({
          where: key,
          create: { componentId, environmentId, ...current },
          update: current,
        });
        const event = await tx.releaseEvent.create({
          data: {
            id: eventId,
            componentId,
            environmentId,
            previousVariantId: previous?.variantId ?? null,
            ...current,
          },
          include: withEnvironmentName,
        });
        return toReleaseEvent(event);
      });
    },

    async listCurrent(componentId) {
      if (!isUuid(componentId)) return [];
      const rows = await prisma.release.findMany({
        where: { componentId },
        include: withEnvironmentName,
        orderBy: { environment: { name: 'asc' } },
      });
      return rows.map(toRelease);
    },

    async findCurrent(componentId, environmentId) {
      if (!isUuid(componentId) || !isUuid(environmentId)) return null;
      const row = await prisma.release.findUnique({
        where: { componentId_environmentId: { componentId, environmentId } },
        include: withEnvironmentName,
      });
      return row && toRelease(row);
    },

    async history(componentId, { limit, before, after }) {
      if (!isUuid(componentId)) return [];
      const cursorId = before ?? after;
      // Keyset pages over (releasedAt, seq), the order of the (component_id, released_at, seq) index.
      let keyset: Prisma.ReleaseEventWhereInput = {};
      if (cursorId !== undefined) {
        const cursor = isUuid(cursorId)
          ? await prisma.releaseEvent.findFirst({ where: { id: cursorId, componentId }, select: { releasedAt: true, seq: true } })
          : null;
        if (!cursor) throw notFound('Release event', cursorId);
        const { releasedAt, seq } = cursor;
        keyset = before !== undefined
          ? { OR: [{ releasedAt: { lt: releasedAt } }, { releasedAt, seq: { lt: seq } }] }
          : { OR: [{ releasedAt: { gt: releasedAt } }, { releasedAt, seq: { gt: seq } }] };
      }
      // Newer than a cursor: the closest ones, read upwards, then turned newest first.
      const direction = after !== undefined ? 'asc' : 'desc';
      const rows = await prisma.releaseEvent.findMany({
        where: { componentId, ...keyset },
        include: withEnvironmentName,
        // seq breaks ties between events stamped with the same time.
        orderBy: [{ releasedAt: direction }, { seq: direction }],
        take: limit,
      });
      if (direction === 'asc') rows.reverse();
      return rows.map(toReleaseEvent);
    },
  };
}

/**
 * The environment's flag read under a share lock: a concurrent protect (an UPDATE of
 * the row) waits for this release to commit, or this release sees it and is refused.
 */
async function refuseUnlessAllowed(tx: Prisma.TransactionClient, environmentId: string, userId: string): Promise<void> {
  const [row] = await tx.$queryRaw<{ name: string; protected: boolean; role: string | null }[]>`
    SELECT e.name, e.protected, m.role::text AS role
    FROM environments e
    LEFT JOIN memberships m ON m.organization_id = e.organization_id AND m.user_id = ${userId}::uuid
    WHERE e.id = ${environmentId}::uuid
    FOR SHARE OF e`;
  if (row?.protected && !(row.role !== null && isManager(row.role as Role))) throw protectedEnvironment(row.name);
}
