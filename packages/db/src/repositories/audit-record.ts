import type { AuditEvent } from '@cp/domain';
import type { Prisma } from '../generated/prisma/client.js';

/** An audit row as a repository writes it: everything but the database's insertion order. */
export type AuditRow = Omit<AuditEvent, 'componentId' | 'subjectUserId'> &
  Partial<Pick<AuditEvent, 'componentId' | 'subjectUserId'>>;

/**
 * Appends one row to the audit trail inside `tx`, the transaction of the change it records:
 * the change and its record commit or fail together. Every write port that records a change
 * calls this, never a separate port, so no edge can forget it.
 */
export async function recordAudit(tx: Prisma.TransactionClient, ...rows: AuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.auditEvent.createMany({
    data: rows.map((row) => ({
      id: row.id,
      organizationId: row.organizationId,
      actorId: row.actorId,
      kind: row.kind,
      componentId: row.componentId ?? null,
      subjectUserId: row.subjectUserId ?? null,
      details: row.details,
      createdAt: row.createdAt,
    })),
  });
}
