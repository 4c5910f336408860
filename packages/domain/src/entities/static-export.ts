import type { Variant } from './component.js';

/** An organization's static export for CDNs (docs/static-export.md): whether it runs, and how its last run went. */
export interface StaticExport {
  readonly organizationId: string;
  readonly enabled: boolean;
  /** When it was last turned on or off; null when never. */
  readonly changedAt: Date | null;
  /** The end of the last run that wrote everything it had to; null until one has. */
  readonly exportedAt: Date | null;
  /** The last run's failure (retried by the queue), safe to show; null once a later run succeeded. */
  readonly lastError: string | null;
  readonly lastErrorAt: Date | null;
}

/** One current release, with what the exported `/consume` body is built from. */
export interface ExportedRelease {
  readonly component: {
    readonly id: string;
    readonly name: string;
    readonly organizationId: string;
  };
  readonly environmentName: string;
  readonly variant: Variant;
  readonly releasedAt: Date;
}

export const staticExportOff = (organizationId: string): StaticExport => ({
  organizationId,
  enabled: false,
  changedAt: null,
  exportedAt: null,
  lastError: null,
  lastErrorAt: null,
});
