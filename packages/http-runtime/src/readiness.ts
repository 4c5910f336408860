import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Metrics } from './metrics.js';

/** A dependency probe: resolves when the dependency answers, rejects otherwise. */
export type ReadinessCheck = () => Promise<unknown>;

export interface CheckResult {
  readonly ok: boolean;
  readonly ms: number;
  readonly error?: string;
}

export interface ReadinessReport {
  readonly status: 'ready' | 'not_ready';
  readonly draining?: true;
  readonly checks: Record<string, CheckResult>;
}

const withTimeout = async (check: ReadinessCheck, timeoutMs: number): Promise<void> => {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      check(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
};

// Messages stay short, on one line, and never carry credentials from a URL.
const describe = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error))
    .replace(/\/\/[^/@\s]*@/g, '//***@')
    .replace(/\s+/g, ' ')
    .slice(0, 200);

/**
 * `GET /ready`: runs every check in parallel, each bounded by `timeoutMs`; 200
 * with per-check detail when all pass, 503 naming the ones that failed (or
 * `draining` once shutdown has begun, so a load balancer stops sending).
 */
export function createReadiness(options: {
  checks: Record<string, ReadinessCheck>;
  timeoutMs?: number;
  draining?: () => boolean;
  /** Where failed checks are counted (`readiness_check_failures_total{check}`) and the last answer kept (`ready`). */
  metrics?: Pick<Metrics, 'counter' | 'gauge'>;
}): { report(): Promise<ReadinessReport>; handler(req: IncomingMessage, res: ServerResponse): void } {
  // A probe that hangs (a partitioned dependency) answers "not ready" well before a load balancer's own deadline.
  const timeoutMs = options.timeoutMs ?? 1500;
  const failures = options.metrics?.counter('readiness_check_failures_total', 'Readiness checks that failed (GET /ready answered 503), by check', ['check']);
  let lastReady = 1;
  options.metrics?.gauge('ready', 'Whether the last GET /ready answered ready (1) or not (0)', () => lastReady);
  const report = async (): Promise<ReadinessReport> => {
    const entries = await Promise.all(
      Object.entries(options.checks).map(async ([name, check]): Promise<[string, CheckResult]> => {
        const start = performance.now();
        try {
          await withTimeout(check, timeoutMs);
          return [name, { ok: true, ms: Math.round(performance.now() - start) }];
        } catch (error) {
          failures?.inc({ check: name });
          return [name, { ok: false, ms: Math.round(performance.now() - start), error: describe(error) }];
        }
      }),
    );
    const checks = Object.fromEntries(entries);
    const draining = options.draining?.() === true;
    const ok = !draining && entries.every(([, result]) => result.ok);
    lastReady = ok ? 1 : 0;
    return { status: ok ? 'ready' : 'not_ready', ...(draining ? { draining: true as const } : {}), checks };
  };
  return {
    report,
    handler(_req, res) {
      void report().then((result) => {
        const body = JSON.stringify(result);
        res.writeHead(result.status === 'ready' ? 200 : 503, {
          'Content-Type': 'application/json',
          'Cache-Control': 'no-store',
          'Content-Length': Buffer.byteLength(body),
        });
        res.end(body);
      });
    },
  };
}

/** An id that names no row: the probe's read is a real round trip that finds nothing. */
const PROBE_ID = '00000000-0000-4000-8000-000000000000';
/** A key that names no object, for the same reason. */
const PROBE_OBJECT_KEY = 'readiness-probe';

/**
 * Readiness through the ports: `database` reads a row by an unused id, `objectStore`
 * (when the service has one) stats an unused key. Both answer "not found" when healthy.
 */
export function storeChecks(stores: {
  findById: (id: string) => Promise<unknown>;
  objects?: { stat(key: string): Promise<unknown> };
}): Record<string, ReadinessCheck> {
  const { findById, objects } = stores;
  return {
    database: () => findById(PROBE_ID),
    ...(objects === undefined ? {} : { objectStore: () => objects.stat(PROBE_OBJECT_KEY) }),
  };
}

/** What every app's `createApp` may be handed for operations; each defaults when absent. */
export interface OperabilityDeps<M> {
  /** This instance's series (default: a new registry). */
  readonly metrics?: M;
  /** `GET /ready` probes (default: the app's own, through the ports). */
  readonly checks?: Record<string, ReadinessCheck>;
  /** True once shutdown has begun: `/ready` answers 503. */
  readonly draining?: () => boolean;
}
