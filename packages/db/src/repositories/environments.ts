import { AuditKind, DomainError, ErrorCode, isUuid, type AuditNote, type Environments } from '@cp/domain';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import { recordAudit } from './audit-record.js';
import { isUniqueViolation } from './errors.js';
import { toEnvironment } from './mappers.js';
import { enqueueIfExporting, type EnqueueStaticExport } from './static-export-queue.js';

type Tx = Prisma.TransactionClient;

/** The audit row of an environment change, written in the change's transaction. */
const record = (
  tx: Tx,
  audit: AuditNote,
  organizationId: string,
  kind: AuditKind,
  details: Record<string, string | boolean>,
  now: Date,
) => recordAudit(tx, { note: audit, organizationId, kind, details, createdAt: now });

/** The environment's row, locked until the transaction ends: the "before" of a change. */
const lockRow = async (tx: Tx, id: string) => {
  const [row] = await tx.$queryRaw<{ organizationId: string; name: string; protected: boolean }[]>`
    SELECT organization_id AS "organizationId", name, protected FROM environments WHERE id = ${id}::uuid FOR UPDATE`;
  return row ?? null;
};

/** `write` in one transaction; a name another environment of the organization has is NAME_TAKEN. */
async function withUniqueName<T>(prisma: PrismaClient, name: string, write: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await prisma.$transaction(write);
  } catch (error) {
    if (!isUniqueViolation(error, ['organization_id', 'name'])) throw error;
    throw nameTaken(name);
  }
}

export function createEnvironments(prisma: PrismaClient, exportJobs: EnqueueStaticExport): Environments {
  return {
    async listForOrganization(organizationId) {
      if (!isUuid(organizationId)) return [];
      const rows = await prisma.environment.findMany({
        where: { organizationId },
        orderBy: [{ name: 'asc' }],
      });
      return rows.map(toEnvironment);
    },

    async findByName(organizationId, name) {
      if (!isUuid(organizationId)) return null;
      const row = await prisma.environment.findUnique({
        where: { organizationId_name: { organizationId, name } },
      });
      return row && toEnvironment(row);
    },

    async create({ id, organizationId, name, protected: isProtected, now, audit }) {
      return withUniqueName(prisma, name, async (tx) => {
        const row = await tx.environment.create({
          data: { id, organizationId, name, protected: isProtected, createdAt: now },
        });
        await record(tx, audit, organizationId, AuditKind.EnvironmentCreated, { name, protected: isProtected }, now);
        return toEnvironment(row);
      });
    },

    async rename(id, name, { now, audit }) {
      if (!isUuid(id)) return null;
      return withUniqueName(prisma, name, async (tx) => {
        const before = await lockRow(tx, id);
        if (!before) return null;
        const row = await tx.environment.update({ where: { id }, data: { name } });
        if (before.name !== name) {
          await record(tx, audit, before.organizationId, AuditKind.EnvironmentRenamed, { before: before.name, after: name }, now);
          // Exported objects are named by environment: the export moves them.
          await enqueueIfExporting(tx, before.organizationId, exportJobs);
        }
        return toEnvironment(row);
      });
    },

    async setProtected(id, isProtected, { now, audit }) {
      if (!isUuid(id)) return null;
      return prisma.$transaction(async (tx) => {
        const before = await lockRow(tx, id);
        if (!before) return null;
        const row = await tx.environment.update({ where: { id }, data: { protected: isProtected } });
        if (before.protected !== isProtected) {
          await record(
            tx,
            audit,
            before.organizationId,
            AuditKind.EnvironmentProtectionChanged,
            { environment: before.name, before: before.protected, after: isProtected },
            now,
          );
        }
        return toEnvironment(row);
      });
    },

    async remove(id, { now, audit }) {
      if (!isUuid(id)) return 'missing';
      return prisma.$transaction(async (tx) => {
        // One statement: the check and the delete see the same snapshot, and a release
        // inserted concurrently fails on its foreign key instead of being cascaded away.
        const [deleted] = await tx.$queryRaw<{ organizationId: string; name: string }[]>`
          DELETE FROM environments e WHERE e.id = ${id}::uuid
            AND NOT EXISTS (SELECT 1 FROM releases r WHERE r.environment_id = e.id)
            AND NOT EXISTS (SELECT 1 FROM release_events x WHERE x.environment_id = e.id)
          RETURNING e.organization_id AS "organizationId", e.name`;
        if (deleted) {
          await record(tx, audit, deleted.organizationId, AuditKind.EnvironmentRemoved, { name: deleted.name }, now);
          return 'removed' as const;
        }
        return (await tx.environment.count({ where: { id } })) > 0 ? ('in-use' as const) : ('missing' as const);
      });
    },
  };
}

const nameTaken = (name: string): DomainError =>
  new DomainError(
    ErrorCode.NameTaken,
    `This organization already has an environment named "${name}". Use it, or choose another name.`,
    { field: 'environment' },
  );
