import type { AuditNote } from '../entities/audit-event.js';
import type { ExportedRelease, StaticExport } from '../entities/static-export.js';

export interface StaticExports {
  /** The organization's export (off when never turned on). */
  find(organizationId: string): Promise<StaticExport>;
  /**
   * Atomic: sets the switch, writes a StaticExportChanged audit row ({ before, after }) when it
   * changed, and enqueues an export job of the whole organization in the same transaction: on
   * (also when already on: everything is written again) exports it all; off removes its objects.
   * Null when the organization does not exist.
   */
  setEnabled(input: {
    organizationId: string;
    enabled: boolean;
    now: Date;
    audit: AuditNote;
  }): Promise<StaticExport | null>;
  /** How a run went: `error` null clears the last error and stamps `exportedAt`. Nothing when the organization is gone. */
  recordRun(organizationId: string, outcome: { at: Date; error: string | null }): Promise<void>;
  /** The organization's current releases, every component and environment, ordered by component name, id, then environment name. */
  listReleased(organizationId: string): Promise<ExportedRelease[]>;
}
