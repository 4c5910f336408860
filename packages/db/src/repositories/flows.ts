import { DomainError, ErrorCode, isUuid, type Flows } from '@cp/domain';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { isForeignKeyViolation } from './errors.js';
import { toFlow } from './mappers.js';

const withComponents = {
  components: { select: { componentId: true }, orderBy: { position: 'asc' } },
} as const;

const entries = (componentIds: readonly string[]) =>
  componentIds.map((componentId, position) => ({ componentId, position }));

export function createFlows(prisma: PrismaClient): Flows {
  const load = async (db: Prisma.TransactionClient | PrismaClient, id: string) => {
    const row = await db.flow.findUnique({ where: { id }, include: withComponents });
    return row && toFlow(row);
  };

  /**
   * Touching the flow row first locks it: a concurrent change of the same flow waits,
   * then reads the list this one leaves, so changes apply one after the other and
   * never collide on positions.
   */
  const editList = async (
    id: string,
    edit: (current: readonly string[]) => readonly string[],
    now: Date,
  ) => {
    if (!isUuid(id)) return null;
    try {
      return await prisma.$transaction(async (tx) => {
        const { count } = await tx.flow.updateMany({ where: { id }, data: { updatedAt: now } });
        if (count === 0) return null;
        const current = await tx.flowComponent.findMany({
          where: { flowId: id },
          orderBy: { position: 'asc' },
          select: { componentId: true },
        });
        const next = edit(current.map((row) => row.componentId));
        await tx.flowComponent.deleteMany({ where: { flowId: id } });
        await tx.flowComponent.createMany({
          data: entries(next).map((entry) => ({ flowId: id, ...entry })),
        });
        return load(tx, id);
      });
    } catch (error) {
      throw missingComponent(error) ?? error;
    }
  };

  return {
    async create({ id, organizationId, name, componentIds, now }) {
      try {
        const row = await prisma.flow.create({
          data: {
            id,
            organizationId,
            name,
            createdAt: now,
            updatedAt: now,
            components: { create: entries(componentIds) },
          },
          include: withComponents,
        });
        return toFlow(row);
      } catch (error) {
        throw missingComponent(error) ?? error;
      }
    },

    async findById(id) {
      return isUuid(id) ? load(prisma, id) : null;
    },

    async setComponents(id, componentIds, now) {
      return editList(id, () => componentIds, now);
    },

    async editComponents(id, edit, now) {
      return editList(id, edit, now);
    },

    async listForOrganization(organizationId) {
      if (!isUuid(organizationId)) return [];
      const rows = await prisma.flow.findMany({
        where: { organizationId },
        include: withComponents,
      });
      return rows
        .map(toFlow)
        .sort(
          (a, b) =>
            a.name.toLowerCase().localeCompare(b.name.toLowerCase()) ||
            (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
        );
    },

    async setStatus(id, status, now) {
      if (!isUuid(id)) return null;
      const { count } = await prisma.flow.updateMany({
        where: { id },
        data: { status, updatedAt: now },
      });
      return count === 0 ? null : load(prisma, id);
    },
  };
}

/** The domain checks components before writing; a deletion in between lands here. */
function missingComponent(error: unknown): DomainError | null {
  if (!isForeignKeyViolation(error)) return null;
  return new DomainError(
    ErrorCode.NotFound,
    'A component in this flow does not exist (any more). Reload the component list and save the flow again.',
    { resource: 'Component' },
  );
}
