import type { AuditNote } from '../entities/audit-event.js';
import type { Flow, FlowStatus } from '../entities/flow.js';

/*
 * Each write records its audit row in its own transaction: FlowCreated, or FlowChanged with
 * the before/after of what changed (the component list or the status); none when nothing did.
 */
export interface Flows {
  create(flow: {
    id: string;
    organizationId: string;
    name: string;
    componentIds: readonly string[];
    now: Date;
    audit: AuditNote;
  }): Promise<Flow>;
  findById(id: string): Promise<Flow | null>;
  /** Replaces the ordered component list; null when the flow does not exist. */
  setComponents(id: string, componentIds: readonly string[], now: Date, audit: AuditNote): Promise<Flow | null>;
  /**
   * Reads the list, applies `edit` (pure; what it throws aborts the change) and writes the
   * result, all under the flow's lock: concurrent edits of one flow apply one after the
   * other, each to the list the previous one left, so none is lost. Null when the flow
   * does not exist.
   */
  editComponents(
    id: string,
    edit: (current: readonly string[]) => readonly string[],
    now: Date,
    audit: AuditNote,
  ): Promise<Flow | null>;
  setStatus(id: string, status: FlowStatus, now: Date, audit: AuditNote): Promise<Flow | null>;
  /** The organization's flows, ordered by name (case-insensitive), then id. */
  listForOrganization(organizationId: string): Promise<Flow[]>;
}
