import type { AuditEvent, AuditKind, AuditNote, AuditValue } from '../entities/audit-event.js';

/** The fakes' audit row for a change, as packages/db's repositories write it. */
export const auditEventFor = (
  audit: AuditNote,
  row: {
    organizationId: string;
    kind: AuditKind;
    now: Date;
    details: { readonly [key: string]: AuditValue };
    componentId?: string | null;
  },
): AuditEvent => ({
  id: audit.eventId,
  organizationId: row.organizationId,
  actorId: audit.actorId,
  via: audit.via ?? null,
  kind: row.kind,
  componentId: row.componentId ?? null,
  subjectUserId: null,
  details: row.details,
  createdAt: row.now,
});
