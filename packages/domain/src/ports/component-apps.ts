import type { AuditNote } from '../entities/audit-event.js';
import type { AppSettings, ComponentApp, LiveApp } from '../entities/component-app.js';

export interface ComponentApps {
  /**
   * Creates or replaces the component's app, atomically with an AuditKind.AppSaved row (the
   * settings, `created` true on the first save) and the app.saved webhook event.
   */
  save(input: {
    componentId: string;
    environmentId: string;
    settings: Omit<AppSettings, 'environment'>;
    savedBy: string;
    now: Date;
    audit: AuditNote;
  }): Promise<ComponentApp>;
  /** Deletes it with an AuditKind.AppRemoved row and the app.removed event; false when there was none. */
  remove(input: { componentId: string; removedBy: string; now: Date; audit: AuditNote }): Promise<boolean>;
  find(componentId: string): Promise<ComponentApp | null>;
  /**
   * The apps of every organization the user is a member of, with their environment's current
   * release, ordered by organization name, then component name; in one query (every tools/list
   * runs it).
   */
  listForMember(userId: string): Promise<LiveApp[]>;
}
