import type { AuditEvent, AuditNote } from '@cp/domain';
import { Prisma } from '../generated/prisma/client.js';

/**
 * An audit row as a repository writes it: the use case's note (the row's id, who acts and the
 * credential they act through), and what the change adds; the database adds the insertion order.
 */
export type AuditRow = Omit<
  AuditEvent,
  'id' | 'actorId' | 'via' | 'componentId' | 'subjectUserId'
> &
  Partial<Pick<AuditEvent, 'componentId' | 'subjectUserId'>> & { readonly note: AuditNote };

/**
 * Appends one row to the audit trail inside `tx`, the transaction of the change it records:
 * the change and its record commit or fail together. Every write port that records a change
 * calls this, never a separate port, so no edge can forget it; it takes the note whole, so
 * no write path can drop its `via`.
 */
export async function recordAudit(
  tx: Prisma.TransactionClient,
  ...rows: AuditRow[]
): Promise<void> {
  if (rows.length === 0) return;
  await tx.auditEvent.createMany({
    data: rows.map((row) => ({
      id: row.note.eventId,
      organizationId: row.organizationId,
      actorId: row.note.actorId,
      via: row.note.via ?? Prisma.DbNull,
      kind: row.kind,
      componentId: row.componentId ?? null,
      subjectUserId: row.subjectUserId ?? null,
      details: row.details,
      createdAt: row.createdAt,
    })),
  });
}

/**
 * A row the domain's rules built whole (members, invitations), with the note it was built from: the
 * note, not the event's copy of it, gives the row its id, actor and `via`.
 */
export const auditRowOf = (event: AuditEvent, note: AuditNote): AuditRow => ({
  organizationId: event.organizationId,
  kind: event.kind,
  componentId: event.componentId,
  subjectUserId: event.subjectUserId,
  details: event.details,
  createdAt: event.createdAt,
  note,
});
