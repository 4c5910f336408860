import { AuditKind, DomainError, ErrorCode, isUuid, type AuditNote, type AuditValue, type Flow, type Flows } from '@cp/domain';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { recordAudit } from './audit-record.js';
import { isForeignKeyViolation } from './errors.js';
import { toFlow } from './mappers.js';

const withComponents = {
  components: { select: { componentId: true }, orderBy: { position: 'asc' } },
} as const;

const entries = (componentIds: readonly string[]) =>
  componentIds.map((componentId, position) => ({ componentId, position }));

/** FlowChanged with the before/after of what changed (the list, the status); nothing when nothing did. */
async function recordChange(tx: Prisma.TransactionClient, audit: AuditNote, before: Flow, after: Flow, now: Date) {
  const was: Record<string, AuditValue> = {};
  const is: Record<string, AuditValue> = {};
  if (before.componentIds.join() !== after.componentIds.join()) {
    was.componentIds = [...before.componentIds];
    is.componentIds = [...after.componentIds];
  }
  if (before.status !== after.status) {
    was.status = before.status;
    is.status = after.status;
  }
  if (Object.keys(is).length === 0) return;
  await recordAudit(tx, {
    note: audit,
    organizationId: after.organizationId,
    kind: AuditKind.FlowChanged,
    details: { flowId: after.id, name: after.name, before: was, after: is },
    createdAt: now,
  });
}

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
    audit: AuditNote,
  ) => {
    if (!isUuid(id)) return null;
    try {
      return await prisma.$transaction(async (tx) => {
        const { count } = await tx.flow.updateMany({ where: { id }, data: { updatedAt: now } });
        if (count === 0) return null;
        const before = (await load(tx, id))!;
        const next = edit(before.componentIds);
        await tx.flowComponent.deleteMany({ where: { flowId: id } });
        await tx.flowComponent.createMany({
          data: entries(next).map((entry) => ({ flowId: id, ...entry })),
        });
        const after = (await load(tx, id))!;
        await recordChange(tx, audit, before, after, now);
        return after;
      });
    } catch (error) {
      throw missingComponent(error) ?? error;
    }
  };

  return {
    async create({ id, organizationId, name, componentIds, now, audit }) {
      try {
        return await prisma.$transaction(async (tx) => {
          const row = await tx.flow.create({
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
          await recordAudit(tx, {
            note: audit,
            organizationId,
            kind: AuditKind.FlowCreated,
            details: { flowId: id, name },
            createdAt: now,
          });
          return toFlow(row);
        });
      } catch (error) {
        throw missingComponent(error) ?? error;
      }
    },

    async findById(id) {
      return isUuid(id) ? load(prisma, id) : null;
    },

    async setComponents(id, componentIds, now, audit) {
      return editList(id, () => componentIds, now, audit);
    },

    async editComponents(id, edit, now, audit) {
      return editList(id, edit, now, audit);
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

    async setStatus(id, status, now, audit) {
      if (!isUuid(id)) return null;
      return prisma.$transaction(async (tx) => {
        // The first UPDATE locks the row, so `before` is the status this change replaces.
        const { count } = await tx.flow.updateMany({ where: { id }, data: { updatedAt: now } });
        if (count === 0) return null;
        const before = (await load(tx, id))!;
        await tx.flow.update({ where: { id }, data: { status } });
        const after = (await load(tx, id))!;
        await recordChange(tx, audit, before, after, now);
        return after;
      });
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
