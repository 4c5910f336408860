import {
  isUuid,
  notFound,
  type AuditEvent,
  type AuditKind,
  type AuditTrail,
  type AuditValue,
  type CredentialVia,
} from '@cp/domain';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';

export function createAuditTrail(prisma: PrismaClient): AuditTrail {
  return {
    async list(organizationId, { limit, before, after, componentId, actorId, kinds }) {
      const cursorId = before ?? after;
      let keyset: Prisma.AuditEventWhereInput = {};
      if (cursorId !== undefined) {
        const cursor =
          isUuid(organizationId) && isUuid(cursorId)
            ? await prisma.auditEvent.findFirst({
                where: { id: cursorId, organizationId },
                select: { seq: true },
              })
            : null;
        if (!cursor) throw notFound('Audit event', cursorId);
        keyset = { seq: before !== undefined ? { lt: cursor.seq } : { gt: cursor.seq } };
      }
      // A malformed id names no row (and PostgreSQL would refuse it as a uuid).
      if (![organizationId, componentId, actorId].every((id) => id === undefined || isUuid(id)))
        return [];
      // Each filter is the second column of one (organization_id, …, seq DESC) index: one index range, in order.
      const where: Prisma.AuditEventWhereInput = {
        organizationId,
        ...keyset,
        ...(componentId === undefined ? {} : { componentId }),
        ...(actorId === undefined ? {} : { actorId }),
        ...(kinds === undefined ? {} : { kind: { in: [...kinds] } }),
      };
      // Newer than a cursor: the closest ones, read upwards, then turned newest first.
      const direction = after !== undefined ? 'asc' : 'desc';
      const rows = await prisma.auditEvent.findMany({
        where,
        orderBy: { seq: direction },
        take: limit,
      });
      if (direction === 'asc') rows.reverse();
      return rows.map(toAuditEvent);
    },
  };
}

const toAuditEvent = (row: {
  id: string;
  organizationId: string;
  actorId: string;
  kind: string;
  componentId: string | null;
  subjectUserId: string | null;
  details: Prisma.JsonValue;
  via: Prisma.JsonValue;
  createdAt: Date;
}): AuditEvent => ({
  id: row.id,
  organizationId: row.organizationId,
  actorId: row.actorId,
  // Written by recordAudit from the note's CredentialVia only; NULL: no credential.
  via: isObject(row.via) ? (row.via as unknown as CredentialVia) : null,
  // Written from AuditKind only (recordAudit); a kind this version does not know is still shown, as text.
  kind: row.kind as AuditKind,
  componentId: row.componentId,
  subjectUserId: row.subjectUserId,
  details: isObject(row.details) ? (row.details as { [key: string]: AuditValue }) : {},
  createdAt: row.createdAt,
});

const isObject = (value: Prisma.JsonValue | null): boolean =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
