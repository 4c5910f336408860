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

/** Usage events (`POST /v1/events`) and served counts (docs/delivery-api.md "Usage events"). */
export interface UsagePolicy {
  /** Buffered events are written this often (0: only at `flushRows`, at shutdown, or by `flush()`). */
  readonly flushIntervalMs: number;
  /** Rows of one write (one `append`); reaching it also starts a write. */
  readonly flushRows: number;
  /** Events kept while writes fail; past it the oldest are dropped (counted). Also bounds the served counts kept. */
  readonly maxBufferedRows: number;
  /** Served counts are written this often (a divisor of a minute; 0: only at shutdown or by `flush()`). */
  readonly servedFlushIntervalMs: number;
  /** Events one client network (an IPv4 address, an IPv6 /64) may send per window. */
  readonly eventsPerNetwork: number;
  /** Events about one component, from everyone, per window. */
  readonly eventsPerComponent: number;
  /** Ids one client network may make the instance read from the database (not cached yet), per window. */
  readonly lookupsPerNetwork: number;
  readonly limitWindowSeconds: number;
}

export interface AppConfig {
  readonly port: number;
  /** Base URL hosts use (no trailing slash); written into `Link` headers and the OpenAPI document. */
  readonly publicUrl: string;
  readonly cache: CachePolicy;
  readonly changeStreams: ChangeStreamPolicy;
  readonly usage: UsagePolicy;
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

export const defaultUsagePolicy: UsagePolicy = {
  flushIntervalMs: 1000,
  flushRows: 5000,
  maxBufferedRows: 50_000,
  servedFlushIntervalMs: 10_000,
  // A large office or carrier NAT behind one address; and a popular component, from every page.
  eventsPerNetwork: 30_000,
  eventsPerComponent: 600_000,
  // A page names a few components and variants, cached after their first read.
  lookupsPerNetwork: 1000,
  limitWindowSeconds: 60,
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
  overrides: Partial<Omit<AppConfig, 'cache' | 'changeStreams' | 'usage'>> & {
    cache?: Partial<CachePolicy>;
    changeStreams?: Partial<ChangeStreamPolicy>;
    usage?: Partial<UsagePolicy>;
  } = {},
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
    usage: { ...defaultUsagePolicy, ...overrides.usage },
  };
}
