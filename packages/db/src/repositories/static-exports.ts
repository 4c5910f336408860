import {
  AuditKind,
  isUuid,
  staticExportOff,
  type StaticExport,
  type StaticExports,
} from '@cp/domain';
import type { PrismaClient } from '../generated/prisma/client.js';
import type * as Rows from '../generated/prisma/client.js';
import { recordAudit } from './audit-record.js';
import { toVariant } from './mappers.js';
import type { EnqueueStaticExport } from './static-export-queue.js';

const toStaticExport = (row: Rows.StaticExport): StaticExport => ({
  organizationId: row.organizationId,
  enabled: row.enabled,
  changedAt: row.changedAt,
  exportedAt: row.exportedAt,
  lastError: row.lastError,
  lastErrorAt: row.lastErrorAt,
});

export function createStaticExports(
  prisma: PrismaClient,
  enqueue: EnqueueStaticExport,
): StaticExports {
  return {
    async find(organizationId) {
      const row = isUuid(organizationId)
        ? await prisma.staticExport.findUnique({ where: { organizationId } })
        : null;
      return row ? toStaticExport(row) : staticExportOff(organizationId);
    },

    async setEnabled({ organizationId, enabled, now, audit }) {
      if (!isUuid(organizationId)) return null;
      return prisma.$transaction(async (tx) => {
        // The organization's row lock orders switches; `before` is the setting this one replaces.
        const [organization] = await tx.$queryRaw<{ id: string }[]>`
          SELECT id FROM organizations WHERE id = ${organizationId}::uuid FOR UPDATE`;
        if (!organization) return null;
        const before = await tx.staticExport.findUnique({ where: { organizationId } });
        const wasEnabled = before?.enabled ?? false;
        const changed = wasEnabled !== enabled;
        const row = await tx.staticExport.upsert({
          where: { organizationId },
          create: { organizationId, enabled, changedAt: now },
          update: changed ? { enabled, changedAt: now } : {},
        });
        if (changed) {
          await recordAudit(tx, {
            note: audit,
            organizationId,
            kind: AuditKind.StaticExportChanged,
            details: { before: wasEnabled, after: enabled },
            createdAt: now,
          });
        }
        // On: everything (again); off: the job empties the folder.
        if (enabled || wasEnabled) await enqueue(tx, { organizationId, full: true });
        return toStaticExport(row);
      });
    },

    async recordRun(organizationId, { at, error }) {
      await prisma.staticExport.updateMany({
        where: { organizationId },
        data:
          error === null
            ? { exportedAt: at, lastError: null, lastErrorAt: null }
            : { lastError: error, lastErrorAt: at },
      });
    },

    async listReleased(organizationId) {
      if (!isUuid(organizationId)) return [];
      const rows = await prisma.release.findMany({
        where: { component: { organizationId } },
        include: {
          component: { select: { id: true, name: true, nameKey: true } },
          environment: { select: { name: true } },
          variant: true,
        },
      });
      return rows
        .sort(
          (a, b) =>
            compare(a.component.nameKey, b.component.nameKey) ||
            compare(a.component.id, b.component.id) ||
            compare(a.environment.name, b.environment.name),
        )
        .map((row) => ({
          component: { id: row.component.id, name: row.component.name, organizationId },
          environmentName: row.environment.name,
          variant: toVariant(row.variant),
          releasedAt: row.releasedAt,
        }));
    },
  };
}

// Code-point order, the same in every process (no locale).
const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
