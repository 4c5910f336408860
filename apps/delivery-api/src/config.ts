/** Everything the delivery API reads from its environment, already validated (see env.ts). */
export interface CachePolicy {
  /** Upper bound of the in-process response cache (identity + gzip + br bytes, plus keys). */
  readonly maxBytes: number;
  /**
   * How long an entry is served without asking the database. Change notifications
   * (LISTEN/NOTIFY) normally end an entry's life first; this is the safety net for a
   * missed notification.
   */
  readonly ttlSeconds: number;
  /** How long past its freshness an entry may still be served while the database fails. */
  readonly staleIfErrorSeconds: number;
  /** Released (environment) responses: `Cache-Control: public, max-age=…`. */
  readonly maxAgeSeconds: number;
  readonly staleWhileRevalidateSeconds: number;
  /** Bodies at least this large also get gzip and brotli variants. */
  readonly compressionMinBytes: number;
}

/** Live updates (`GET /changes`, Server-Sent Events). */
export interface ChangeStreamPolicy {
  /** A comment line this often keeps proxies and load balancers from closing an idle stream. */
  readonly heartbeatMs: number;
  /** Open streams from one client address (browsers share one per page, so a few tabs). */
  readonly maxStreamsPerClient: number;
  /** Open streams on this instance; beyond it new streams answer 503 and clients retry elsewhere. */
  readonly maxStreams: number;
}

export interface AppConfig {
  readonly port: number;
  /** Base URL hosts use (no trailing slash); written into `Link` headers and the OpenAPI document. */
  readonly publicUrl: string;
  readonly cache: CachePolicy;
  readonly changeStreams: ChangeStreamPolicy;
  /**
   * Which peers may state the client's address in `X-Forwarded-For` (Express's
   * `trust proxy` forms): the per-client stream cap counts by that address.
   */
  readonly trustProxy: boolean | number | string;
  /** Environment whose released variants `/flow?resolve=components` returns. */
  readonly flowEnvironment: string;
  /** `Sunset` date of the deprecated `/flow` endpoint. */
  readonly flowSunset: Date;
  /** A database or object-store read slower than this fails (then stale-if-error or 503). */
  readonly loadTimeoutMs: number;
  /** `Retry-After` of a 503. */
  readonly retryAfterSeconds: number;
}

/** /flow has been deprecated since /consume replaced it (RFC 9745 `Deprecation`). */
export const FLOW_DEPRECATED_AT = new Date('2026-11-22T00:00:00Z');

export const defaultCachePolicy: CachePolicy = {
  maxBytes: 64 * 1024 * 1024,
  ttlSeconds: 60,
  staleIfErrorSeconds: 86_400,
  maxAgeSeconds: 30,
  staleWhileRevalidateSeconds: 30,
  compressionMinBytes: 1024,
};

export const defaultChangeStreamPolicy: ChangeStreamPolicy = {
  heartbeatMs: 15_000,
  maxStreamsPerClient: 8,
  maxStreams: 5000,
};

export const DEFAULT_FLOW_SUNSET = new Date('2027-06-30T00:00:00Z');

/**
 * DELIVERY_LOAD_TIMEOUT_MS's default, for the database and object-store reads alike: far
 * above a healthy read, and below what a host page waits for, so a dependency that hangs
 * costs a cached component nothing (stale-if-error) and an uncached one a 503 within a second.
 */
export const DEFAULT_LOAD_TIMEOUT_MS = 600;

/** Test and embedded-stack convenience: a full config from the few values that vary. */
export function makeConfig(
  overrides: Partial<Omit<AppConfig, 'cache' | 'changeStreams'>> & { cache?: Partial<CachePolicy>; changeStreams?: Partial<ChangeStreamPolicy> } = {},
): AppConfig {
  const port = overrides.port ?? 4200;
  return {
    port,
    publicUrl: `http://localhost:${port}`,
    flowEnvironment: 'prod',
    flowSunset: DEFAULT_FLOW_SUNSET,
    // Longer than production's: a cold first load on a busy test machine must not read as an outage.
    loadTimeoutMs: 5000,
    retryAfterSeconds: 5,
    trustProxy: false,
    ...overrides,
    cache: { ...defaultCachePolicy, ...overrides.cache },
    changeStreams: { ...defaultChangeStreamPolicy, ...overrides.changeStreams },
  };
}
