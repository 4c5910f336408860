import { isUuid, type Variants } from '@cp/domain';
import { Prisma, type PrismaClient, type Variant as VariantRow } from '../generated/prisma/client.js';
import type { SqlReader } from '../sql-reader.js';
import { toVariant } from './mappers.js';

/** Columns aliased to the model's field names, so raw rows map like model rows. */
const COLUMNS = Prisma.sql`id, component_id AS "componentId", sequence, object_key AS "objectKey", size, sha256,
  integrity, created_by_id AS "createdById", created_at AS "createdAt"`;

const INT4_MAX = 2 ** 31 - 1;

export function createVariants(prisma: PrismaClient, sql: SqlReader): Variants {
  return {
    async findById(id) {
      if (!isUuid(id)) return null;
      const row = await prisma.variant.findUnique({ where: { id } });
      return row && toVariant(row);
    },

    async findLatest(componentId) {
      if (!isUuid(componentId)) return null;
      // Half of get_component's reads, so written in SQL for the driver (sql-reader.ts).
      // Served by the unique (component_id, sequence) index, read backwards.
      const [row] = await sql.rows<VariantRow>(Prisma.sql`
        SELECT ${COLUMNS} FROM variants WHERE component_id = ${componentId}::uuid ORDER BY sequence DESC LIMIT 1`);
      return row ? toVariant(row) : null;
    },

    async findMany(componentId, ids) {
      const wanted = ids.filter(isUuid);
      if (!isUuid(componentId) || wanted.length === 0) return [];
      const rows = await prisma.variant.findMany({ where: { componentId, id: { in: wanted } } });
      return rows.map(toVariant);
    },

    async listForComponent(componentId, { limit, beforeSequence }) {
      if (!isUuid(componentId)) return [];
      const rows = await prisma.variant.findMany({
        where: {
          componentId,
          // sequence is an int4: every one is below a larger cursor (which the column could not even hold).
          ...(beforeSequence === undefined || beforeSequence > INT4_MAX ? {} : { sequence: { lt: beforeSequence } }),
        },
        orderBy: { sequence: 'desc' },
        take: limit,
      });
      return rows.map(toVariant);
    },
  };
}
