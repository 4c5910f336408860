import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
import { HttpMetrics, Tally, type RouteRecorder } from './http-metrics.js';

/**
 * One Prometheus registry per app instance (never prom-client's global one, so
 * several instances in one process, as in tests and `pnpm start`, keep apart).
 * Every service gets the HTTP series and Node's process metrics; services add
 * their own counters with `counter()`.
 */
export interface Metrics {
  readonly registry: Registry;
  readonly http: HttpMetrics;
  /** A counter in this registry. Label values must be bounded (codes, reasons), never ids. */
  counter<L extends string>(name: string, help: string, labelNames?: readonly L[]): Counter<L>;
  /** A one-label counter cheap enough for a hot path; `initial` values are exported as 0 from the start. */
  tally(name: string, help: string, label: string, initial?: readonly string[]): Tally;
  /** A gauge without labels whose value is read at scrape time (e.g. open connections). */
  gauge(name: string, help: string, read: () => number): void;
  /** `GET /metrics`: the Prometheus text format. */
  handler(req: IncomingMessage, res: ServerResponse): void;
}

export function createMetrics(options: { service: string; processMetrics?: boolean }): Metrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service: options.service });
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry });
  const http = new HttpMetrics(registry);
  return {
    registry,
    http,
    counter: (name, help, labelNames = []) => new Counter({ name, help, labelNames, registers: [registry] }),
    tally: (name, help, label, initial) => new Tally(registry, name, help, label, initial),
    gauge(name, help, read) {
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read());
        },
      });
    },
    handler(_req, res) {
      registry.metrics().then(
        (text) => {
          res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(text) });
          res.end(text);
        },
        (error: unknown) => {
          res.writeHead(500, { 'Content-Type': 'text/plain' });
          res.end(`metrics failed: ${(error as Error).message}`);
        },
      );
    },
  };
}

/** Seconds elapsed since `start` (a `performance.now()` reading). */
export const secondsSince = (start: number): number => (performance.now() - start) / 1000;

/**
 * Times a bare node:http request on a pre-bound route: call at the start of the
 * request; the status is read when the response finishes.
 */
export function timeResponse(recorder: RouteRecorder, res: ServerResponse): void {
  const start = performance.now();
  res.once('finish', () => recorder.record(res.statusCode, (performance.now() - start) / 1000));
}

interface ExpressLikeRequest extends IncomingMessage {
  route?: { path?: unknown };
  baseUrl?: string;
}

/**
 * Express middleware: labels each request with the pattern of the route that
 * answered it (`req.route.path`, e.g. `/interaction/:uid`), else with what
 * `fallback` returns for it (a fixed name such as `(unmatched)`: never the raw
 * URL, which would make one series per id).
 */
export function expressMetrics(metrics: Metrics, fallback: (req: IncomingMessage) => string = () => '(unmatched)') {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const start = performance.now();
    res.once('finish', () => {
      const r = req as ExpressLikeRequest;
      const path = r.route?.path;
      const route = typeof path === 'string' ? `${r.baseUrl ?? ''}${path}` : Array.isArray(path) ? `${r.baseUrl ?? ''}${String(path[0])}` : fallback(req);
      metrics.http.observe(route, req.method ?? 'OTHER', res.statusCode, (performance.now() - start) / 1000);
    });
    next();
  };
}
