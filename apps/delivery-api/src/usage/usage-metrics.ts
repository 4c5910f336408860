import type { Counter, Metrics } from '@cp/http-runtime';
import { Histogram } from 'prom-client';

/** What an event's batch came to: stored, or why not (docs/delivery-api.md "Usage events"). */
export type EventResult = 'accepted' | 'unknown_component' | 'unknown_environment' | 'unknown_variant' | 'rate_limited' | 'unavailable';
/** Why a whole request was refused. */
export type RefusalReason = 'too_large' | 'invalid' | 'unsupported_media_type' | 'rate_limited' | 'unavailable';
/** Buffered events, or `/consume` responses counted. */
export type RowKind = 'events' | 'served';

export interface UsageMetrics {
  readonly events: Counter<'result'>;
  readonly refusals: Counter<'reason'>;
  /** Rows written (served: one row per component, environment, variant and minute). */
  readonly written: Counter<'kind'>;
  /** Rows given up: the buffer's bound was reached while the database failed. */
  readonly dropped: Counter<'kind'>;
  readonly flushSeconds: Histogram<'kind' | 'outcome'>;
}

export function createUsageMetrics(metrics: Metrics, bufferedRows: () => number): UsageMetrics {
  const events = metrics.counter(
    'delivery_usage_events_total',
    'Usage events received on POST /v1/events, by result: accepted (buffered), unknown_component, unknown_environment, unknown_variant (answered 204, not stored), rate_limited, unavailable (their request refused).',
    ['result'],
  );
  const refusals = metrics.counter('delivery_usage_requests_refused_total', 'POST /v1/events requests refused, by reason (413, 400, 415, 429, 503).', ['reason']);
  const written = metrics.counter('delivery_usage_rows_written_total', 'Usage rows written to the database: events, and served (per component, environment, variant and minute).', ['kind']);
  const dropped = metrics.counter('delivery_usage_rows_dropped_total', 'Usage rows given up, oldest first, once the buffer held its bound while writes failed.', ['kind']);
  metrics.gauge('delivery_usage_buffered_rows', 'Usage events waiting in memory to be written.', bufferedRows);
  const flushSeconds = new Histogram({
    name: 'delivery_usage_flush_duration_seconds',
    help: 'Time of one usage write (events: one append of at most the flush size; served: one addServed), by outcome.',
    labelNames: ['kind', 'outcome'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [metrics.registry],
  });
  for (const result of ['accepted', 'unknown_component', 'unknown_environment', 'unknown_variant', 'rate_limited', 'unavailable'] as const) events.inc({ result }, 0);
  for (const kind of ['events', 'served'] as const) {
    written.inc({ kind }, 0);
    dropped.inc({ kind }, 0);
  }
  return { events, refusals, written, dropped, flushSeconds };
}

/**
 * What a failed usage write or lookup is logged as: the driver's code or the error's name, never
 * its message (a database error may quote the values of the rows it refused).
 */
export const failureOf = (error: unknown): string =>
  (typeof (error as { code?: unknown })?.code === 'string' ? (error as { code: string }).code : null) ?? (error instanceof Error ? error.name : typeof error);
