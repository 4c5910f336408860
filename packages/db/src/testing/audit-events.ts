import { randomUUID } from 'node:crypto';
import { AuditKind, type AuditEvent } from '@cp/domain';
import { auditRowOf, recordAudit } from '../repositories/audit-record.js';
import type { TestDatabase } from './test-database.js';

/**
 * Appends audit events in this order, in one transaction, through the writers' own recordAudit:
 * for tests of the trail's readers that need events no use case writes yet, or many of them.
 */
export async function recordAuditEvents(
  db: Pick<TestDatabase, 'prisma'>,
  ...events: AuditEvent[]
): Promise<void> {
  const rows = events.map((event) =>
    auditRowOf(event, { eventId: event.id, actorId: event.actorId, ...(event.via ? { via: event.via } : {}) }),
  );
  await db.prisma.$transaction(async (tx) => recordAudit(tx, ...rows));
}

/** An event of `organizationId` by `actorId`: a tag change now, unless told otherwise. */
export const anAuditEvent = (
  event: Pick<AuditEvent, 'organizationId' | 'actorId'> & Partial<AuditEvent>,
): AuditEvent => ({
  id: randomUUID(),
  kind: AuditKind.TagsChanged,
  via: null,
  componentId: null,
  subjectUserId: null,
  details: {},
  createdAt: new Date(),
  ...event,
});
