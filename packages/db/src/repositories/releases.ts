import { isUuid, notFound, weekStarts, type Releases } from '@cp/domain';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import type { JobSender } from '../jobs/job-sender.js';
import type { SqlReader } from '../sql-reader.js';
import { toRelease, toReleaseEvent } from './mappers.js';
import { refuseUnlessAllowed, writeRelease } from './release-write.js';

const withEnvironmentName = { environment: { select: { name: true } } } as const;

export function createReleases(prisma: PrismaClient, sql: SqlReader, jobs: JobSender): Releases {
  return {
    async publish({ enforceProtection, ...input }) {
      return prisma.$transaction(async (tx) => {
        if (enforceProtection) await refuseUnlessAllowed(tx, input.environmentId, input.releasedBy);
        return writeRelease(tx, jobs, input);
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

    async countPerWeek(componentId, { from, weeks }) {
      const bounds = weekStarts(from, weeks + 1);
      const counts = new Map<number, number>();
      if (isUuid(componentId)) {
        // One read grouped by UTC week (date_trunc's weeks start on Monday), a range of the
        // (component_id, released_at, seq) index; the weeks without a row are added below.
        const rows = await sql.rows<{ weekStart: Date; count: number }>(Prisma.sql`
          SELECT date_trunc('week', released_at, 'UTC') AS "weekStart", count(*)::int AS count
          FROM release_events
          WHERE component_id = ${componentId}::uuid
            AND released_at >= ${from}::timestamptz AND released_at < ${bounds[weeks]}::timestamptz
          GROUP BY 1`);
        for (const row of rows) counts.set(row.weekStart.getTime(), row.count);
      }
      return bounds.slice(0, weeks).map((weekStart) => ({ weekStart, count: counts.get(weekStart.getTime()) ?? 0 }));
    },
  };
}
