import type { Registry } from 'prom-client';

/**
 * Request count and latency by route pattern, method and status, as two series
 * families: `http_requests_total` (counter) and `http_request_duration_seconds`
 * (histogram). Written for the delivery API's hot path: a request costs one Map
 * lookup (cached per status on a pre-bound route), a short bucket scan and three
 * additions on plain numbers; the Prometheus text is built only at scrape time.
 * prom-client's own Counter/Histogram hash their label set on every call,
 * which this avoids.
 */
export const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;

interface MetricSample {
  readonly metricName?: string;
  readonly labels: Record<string, string | number>;
  readonly value: number;
}

interface Series {
  readonly labels: { route: string; method: string; status: string };
  count: number;
  sum: number;
  /** Per-bucket counts (not cumulative); the last slot is +Inf. */
  readonly buckets: Float64Array;
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** One route and method, bound once; `record` is what a request pays. */
export interface RouteRecorder {
  record(status: number, seconds: number): void;
}

export class HttpMetrics {
  private readonly series = new Map<string, Series>();

  constructor(registry: Registry) {
    const all = () => [...this.series.values()];
    registry.registerMetric(
      customMetric('http_requests_total', 'HTTP requests answered, by route pattern, method and status.', 'counter', () =>
        all().map((s) => ({ labels: { ...s.labels }, value: s.count })),
      ),
    );
    registry.registerMetric(
      customMetric('http_request_duration_seconds', 'Time to answer an HTTP request (until the response is finished), by route pattern, method and status.', 'histogram', () =>
        all().flatMap((s) => {
          const values: MetricSample[] = [];
          let cumulative = 0;
          DURATION_BUCKETS.forEach((le, i) => {
            cumulative += s.buckets[i]!;
            values.push({ metricName: 'http_request_duration_seconds_bucket', labels: { ...s.labels, le }, value: cumulative });
          });
          cumulative += s.buckets[DURATION_BUCKETS.length]!;
          values.push({ metricName: 'http_request_duration_seconds_bucket', labels: { ...s.labels, le: '+Inf' }, value: cumulative });
          values.push({ metricName: 'http_request_duration_seconds_sum', labels: { ...s.labels }, value: s.sum });
          values.push({ metricName: 'http_request_duration_seconds_count', labels: { ...s.labels }, value: s.count });
          return values;
        }),
      ),
    );
  }

  /** Records one request. `route` must be a pattern (`/components/:id`), never a raw path. */
  observe(route: string, method: string, status: number, seconds: number): void {
    add(this.seriesFor(route, normalizeMethod(method), status), seconds);
  }

  /** A recorder for one route and method with its series cached per status: for hot paths. */
  route(route: string, method: string): RouteRecorder {
    const byStatus = new Map<number, Series>();
    const m = normalizeMethod(method);
    return {
      record: (status, seconds) => {
        let series = byStatus.get(status);
        if (series === undefined) {
          series = this.seriesFor(route, m, status);
          byStatus.set(status, series);
        }
        add(series, seconds);
      },
    };
  }

  private seriesFor(route: string, method: string, status: number): Series {
    const key = `${route}\u0000${method}\u0000${status}`;
    let series = this.series.get(key);
    if (series === undefined) {
      series = { labels: { route, method, status: String(status) }, count: 0, sum: 0, buckets: new Float64Array(DURATION_BUCKETS.length + 1) };
      this.series.set(key, series);
    }
    return series;
  }
}

function add(series: Series, seconds: number): void {
  series.count += 1;
  series.sum += seconds;
  let i = 0;
  while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]!) i += 1;
  series.buckets[i]! += 1;
}

const normalizeMethod = (method: string): string => (KNOWN_METHODS.has(method) ? method : 'OTHER');

/** A metric object the prom-client registry can format (it only calls get() and reset()). */
function customMetric(name: string, help: string, type: 'counter' | 'histogram', values: () => MetricSample[]) {
  return {
    name,
    help,
    type,
    aggregator: 'sum' as const,
    get: async () => ({ name, help, type, aggregator: 'sum', values: values() }),
    reset: () => undefined,
  } as unknown as Parameters<Registry['registerMetric']>[0];
}

/**
 * A counter with one label, kept in plain numbers and formatted only when scraped:
 * for hot paths (the delivery API's cache hits), where prom-client's Counter would
 * hash its labels on every increment.
 */
export class Tally {
  private readonly counts = new Map<string, number>();

  constructor(registry: Registry, name: string, help: string, private readonly label: string, initial: readonly string[] = []) {
    for (const value of initial) this.counts.set(value, 0);
    registry.registerMetric(customMetric(name, help, 'counter', () => [...this.counts].map(([value, count]) => ({ labels: { [this.label]: value }, value: count }))));
  }

  inc(value: string): void {
    this.counts.set(value, (this.counts.get(value) ?? 0) + 1);
  }
}
