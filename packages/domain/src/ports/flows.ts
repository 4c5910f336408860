import type { Flow, FlowStatus } from '../entities/flow.js';

export interface Flows {
  create(flow: {
    id: string;
    organizationId: string;
    name: string;
    componentIds: readonly string[];
    now: Date;
  }): Promise<Flow>;
  findById(id: string): Promise<Flow | null>;
  /** Replaces the ordered component list; null when the flow does not exist. */
  setComponents(id: string, componentIds: readonly string[], now: Date): Promise<Flow | null>;
  /**
   * Reads the list, applies `edit` (pure; what it throws aborts the change) and writes the
   * result, all under the flow's lock: concurrent edits of one flow apply one after the
   * other, each to the list the previous one left, so none is lost. Null when the flow
   * does not exist.
   */
  editComponents(id: string, edit: (current: readonly string[]) => readonly string[], now: Date): Promise<Flow | null>;
  setStatus(id: string, status: FlowStatus, now: Date): Promise<Flow | null>;
  /** The organization's flows, ordered by name (case-insensitive), then id. */
  listForOrganization(organizationId: string): Promise<Flow[]>;
}
