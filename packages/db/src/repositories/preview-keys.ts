import { isUuid, type PreviewKeys } from '@cp/domain';
import type { PrismaClient } from '../generated/prisma/client.js';
import { toPreviewKey } from './mappers.js';

export function createPreviewKeys(prisma: PrismaClient): PreviewKeys {
  return {
    async create(key, limit) {
      return prisma.$transaction(async (tx) => {
        // The organization's row lock queues parallel creations, so each counts the keys the previous one added.
        await tx.$queryRaw`SELECT 1 FROM "organizations" WHERE "id" = ${key.organizationId}::uuid FOR UPDATE`;
        const active = await tx.previewKey.count({
          where: { organizationId: key.organizationId, revokedAt: null },
        });
        if (active >= limit) return 'limit-reached' as const;
        return toPreviewKey(await tx.previewKey.create({ data: key }));
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

    async revoke({ organizationId, keyId, now }) {
      if (!isUuid(organizationId) || !isUuid(keyId)) return null;
      await prisma.previewKey.updateMany({
        where: { id: keyId, organizationId, revokedAt: null },
        data: { revokedAt: now },
      });
      const row = await prisma.previewKey.findFirst({ where: { id: keyId, organizationId } });
      return row && toPreviewKey(row);
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
