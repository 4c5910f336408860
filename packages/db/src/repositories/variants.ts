import { isUuid, type Variants } from '@cp/domain';
import type { PrismaClient } from '../generated/prisma/client.js';
import { toVariant } from './mappers.js';

export function createVariants(prisma: PrismaClient): Variants {
  return {
    async findById(id) {
      if (!isUuid(id)) return null;
      const row = await prisma.variant.findUnique({ where: { id } });
      return row && toVariant(row);
    },

    async findLatest(componentId) {
      if (!isUuid(componentId)) return null;
      // Served by the unique (component_id, sequence) index, read backwards.
      const row = await prisma.variant.findFirst({
        where: { componentId },
        orderBy: { sequence: 'desc' },
      });
      return row && toVariant(row);
    },

    async listForComponent(componentId, { limit, beforeSequence }) {
      if (!isUuid(componentId)) return [];
      const rows = await prisma.variant.findMany({
        where: {
          componentId,
          ...(beforeSequence === undefined ? {} : { sequence: { lt: beforeSequence } }),
        },
        orderBy: { sequence: 'desc' },
        take: limit,
      });
      return rows.map(toVariant);
    },
  };
}
