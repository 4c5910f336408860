/**
 * Usage analytics (docs/usage-analytics.md): what host pages report about the components they
 * render, and what the delivery API counts itself. Events are counted per component,
 * environment, variant, type and name; nothing here identifies a person.
 */

/** What the host SDK reports (wire format v1, `POST /v1/events`). */
export const USAGE_EVENT_TYPES = ['load', 'render', 'error', 'interaction', 'vital'] as const;
export type UsageEventType = (typeof USAGE_EVENT_TYPES)[number];

/** Counted by the delivery API itself (one per `/consume` response), never sent by a client. */
export const SERVED_TYPE = 'served';
/** Every type the rollups hold. */
export type UsageRollupType = UsageEventType | typeof SERVED_TYPE;

/** The variant of an SDK error raised before any variant was loaded (the component could not be fetched). */
export const NO_VARIANT = '00000000-0000-0000-0000-000000000000';

/** The environment of an event about a preview (`/consume` without `env`). */
export const PREVIEW_ENVIRONMENT = '';

export interface UsageErrorDetail {
  /** A CpError code or the error's constructor name. */
  readonly errorClass: string;
  readonly message: string;
  /** 8 hex digits: the SDK's hash of the normalized stack. */
  readonly stackHash: string;
}

/** One accepted event, as the ingest stores it: checked, and stamped with the server's clock. */
export interface UsageEvent {
  readonly at: Date;
  readonly componentId: string;
  /** An environment name, or PREVIEW_ENVIRONMENT. */
  readonly environment: string;
  /** A variant of the component, or NO_VARIANT. */
  readonly variantId: string;
  readonly type: UsageEventType;
  /** load "consume", render "ready", error "sdk" | "uncaught" | "rejection", interaction: the action, vital "LCP" | "INP" | "CLS". */
  readonly name: string;
  /** Milliseconds (CLS x 1000) for load, render and vital; null otherwise. */
  readonly value: number | null;
  /** load only: whether the browser's HTTP cache answered. */
  readonly cacheHit: boolean | null;
  readonly isolation: 'iframe' | 'shadow';
  readonly sdkVersion: string;
  /** The host page's host name, never its path. */
  readonly hostName: string;
  /** Random per page and day, made by the SDK; never derived from the host's user. */
  readonly sessionId: string;
  readonly sequence: number;
  /** The sampling rate in (0, 1] the host page applied. */
  readonly sampleRate: number;
  /** A coarse family ("chrome", "firefox", "safari", "edge", "other"): never the user agent itself. */
  readonly browser: string;
  readonly error: UsageErrorDetail | null;
}

/** `/consume` responses the delivery API sent for one component, environment and variant. */
export interface ServedCount {
  readonly minute: Date;
  readonly componentId: string;
  readonly environment: string;
  readonly variantId: string;
  readonly count: number;
}
