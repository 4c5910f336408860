import type { AuditEvent, AuditKind } from '../entities/audit-event.js';

/** One page of an organization's audit trail: filters (all optional, combined with AND) and a keyset cursor. */
export interface AuditTrailQuery {
  readonly limit: number;
  /** An event id: the events older than it. At most one of `before` and `after`. */
  readonly before?: string | undefined;
  /** An event id: the `limit` events closest above it (the oldest of the newer ones), still newest first. */
  readonly after?: string | undefined;
  readonly componentId?: string | undefined;
  readonly actorId?: string | undefined;
  /** Events of any of these kinds; an empty list matches none. */
  readonly kinds?: readonly AuditKind[] | undefined;
}

/** The read side of the audit trail (rows are written by the write ports, in their changes' transactions). */
export interface AuditTrail {
  /**
   * Newest first by insertion order (not by `createdAt`: two changes stamped alike keep the order
   * they committed their rows in), at most `limit` events. A cursor that is not an event of this
   * organization (malformed, unknown, another organization's) throws DomainError NOT_FOUND; a
   * malformed `componentId` or `actorId` matches nothing.
   */
  list(organizationId: string, query: AuditTrailQuery): Promise<AuditEvent[]>;
}
