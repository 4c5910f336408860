import { AuditKind, isUuid, type PreviewKeys } from '@cp/domain';
import type { PrismaClient } from '../generated/prisma/client.js';
import { recordAudit } from './audit-record.js';
import { toPreviewKey } from './mappers.js';

export function createPreviewKeys(prisma: PrismaClient): PreviewKeys {
  return {
    async create(key, limit, audit) {
      return prisma.$transaction(async (tx) => {
        // The organization's row lock queues parallel creations, so each counts the keys the previous one added.
        await tx.$queryRaw`SELECT 1 FROM "organizations" WHERE "id" = ${key.organizationId}::uuid FOR UPDATE`;
        const active = await tx.previewKey.count({
          where: { organizationId: key.organizationId, revokedAt: null },
        });
        if (active >= limit) return 'limit-reached' as const;
        const created = toPreviewKey(await tx.previewKey.create({ data: key }));
        await recordAudit(tx, {
          note: audit,
          organizationId: key.organizationId,
          kind: AuditKind.PreviewKeyCreated,
          details: { keyId: key.id, name: key.name, prefix: key.prefix },
          createdAt: key.createdAt,
        });
        return created;
      });
    },

    async listForOrganization(organizationId) {
      if (!isUuid(organizationId)) return [];
      const rows = await prisma.previewKey.findMany({
        where: { organizationId },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      });
      return rows.map(toPreviewKey);
    },

    async revoke({ organizationId, keyId, now, audit }) {
      if (!isUuid(organizationId) || !isUuid(keyId)) return null;
      return prisma.$transaction(async (tx) => {
        // Only the revocation that changes the row records it; a repeated one finds nothing to update.
        const { count } = await tx.previewKey.updateMany({
          where: { id: keyId, organizationId, revokedAt: null },
          data: { revokedAt: now },
        });
        const row = await tx.previewKey.findFirst({ where: { id: keyId, organizationId } });
        if (row && count === 1) {
          await recordAudit(tx, {
            note: audit,
            organizationId,
            kind: AuditKind.PreviewKeyRevoked,
            details: { keyId, name: row.name, prefix: row.prefix },
            createdAt: now,
          });
        }
        return row && toPreviewKey(row);
      });
    },

    async isActive(organizationId, secretHash) {
      if (!isUuid(organizationId)) return false;
      const row = await prisma.previewKey.findUnique({
        where: { secretHash },
        select: { organizationId: true, revokedAt: true },
      });
      return row !== null && row.organizationId === organizationId && row.revokedAt === null;
    },
  };
}
