import { AuditKind, isUuid, type Organizations } from '@cp/domain';
import type { PrismaClient } from '../generated/prisma/client.js';
import { recordAudit } from './audit-record.js';
import { toOrganization } from './mappers.js';
import { deleteOrganization } from './organization-deletion.js';
import type { EnqueueStaticExport } from './static-export-queue.js';
import { environmentTaken, organizationData } from './organization-data.js';

export function createOrganizations(prisma: PrismaClient, exportJobs: EnqueueStaticExport): Organizations {
  return {
    async create({ organization, ownerId, now, audit }) {
      try {
        const row = await prisma.$transaction(async (tx) => {
          const created = await tx.organization.create({
            data: {
              ...organizationData(organization, now),
              memberships: { create: { userId: ownerId, role: 'owner', joinedAt: now } },
            },
          });
          if (audit) {
            const details = { name: created.name };
            await recordAudit(tx, { note: audit, organizationId: created.id, kind: AuditKind.OrganizationCreated, details, createdAt: now });
          }
          return created;
        });
        return toOrganization(row);
      } catch (error) {
        throw environmentTaken(error, organization) ?? error;
      }
    },

    async findById(id) {
      if (!isUuid(id)) return null;
      const row = await prisma.organization.findUnique({ where: { id } });
      return row && toOrganization(row);
    },

    async listForUser(userId) {
      if (!isUuid(userId)) return [];
      const rows = await prisma.membership.findMany({
        where: { userId },
        include: { organization: true, user: { select: { defaultOrganizationId: true } } },
        orderBy: [{ organization: { name: 'asc' } }, { organizationId: 'asc' }],
      });
      return rows.map((row) => ({
        ...toOrganization(row.organization),
        role: row.role,
        isDefault: row.user.defaultOrganizationId === row.organizationId,
      }));
    },

    async findMembership(userId, organizationId) {
      if (!isUuid(userId) || !isUuid(organizationId)) return null;
      const row = await prisma.membership.findUnique({
        where: { userId_organizationId: { userId, organizationId } },
      });
      return row && { userId: row.userId, organizationId: row.organizationId, role: row.role };
    },

    async listMembers(organizationId, { roles, limit }) {
      if (!isUuid(organizationId)) return [];
      // The enum's order is owner, admin, member: ordering by role puts owners first.
      const rows = await prisma.membership.findMany({
        where: { organizationId, role: { in: [...roles] } },
        orderBy: [{ role: 'asc' }, { userId: 'asc' }],
        take: limit,
      });
      return rows.map((row) => ({ userId: row.userId, organizationId: row.organizationId, role: row.role }));
    },

    async setPrivatePreviews(organizationId, enabled, { now, audit }) {
      if (!isUuid(organizationId)) return null;
      return prisma.$transaction(async (tx) => {
        // The row lock makes `before` the setting this change replaces.
        const [before] = await tx.$queryRaw<{ privatePreviews: boolean }[]>`
          SELECT private_previews AS "privatePreviews" FROM organizations WHERE id = ${organizationId}::uuid FOR UPDATE`;
        if (!before) return null;
        const row = await tx.organization.update({ where: { id: organizationId }, data: { privatePreviews: enabled } });
        if (before.privatePreviews !== enabled) {
          await recordAudit(tx, {
            note: audit,
            organizationId,
            kind: AuditKind.PrivatePreviewsChanged,
            details: { before: before.privatePreviews, after: enabled },
            createdAt: now,
          });
        }
        return toOrganization(row);
      });
    },

    async rename({ organizationId, name, audit, now }) {
      if (!isUuid(organizationId)) return null;
      return prisma.$transaction(async (tx) => {
        // The name before, read under the row lock the UPDATE takes anyway: the trail's "before" is exact.
        const [before] = await tx.$queryRaw<{ name: string }[]>`
          SELECT name FROM organizations WHERE id = ${organizationId}::uuid FOR NO KEY UPDATE`;
        if (!before) return null;
        const row = await tx.organization.update({ where: { id: organizationId }, data: { name } });
        const details = { before: before.name, after: name };
        await recordAudit(tx, { note: audit, organizationId, kind: AuditKind.OrganizationRenamed, details, createdAt: now });
        return toOrganization(row);
      });
    },

    delete: (input) => deleteOrganization(prisma, input, exportJobs),
  };
}
