import { HISTOGRAM_BUCKETS, type UsageEventType } from '@cp/domain';
import type { SqlReader } from '../sql-reader.js';

/** What the raw events of one environment, variant and type add up to over a range. */
export interface RawEventCount {
  readonly environment: string;
  readonly variantId: string;
  readonly type: UsageEventType;
  readonly count: number;
  readonly errors: number;
  readonly sum: number;
  /** The buckets of rules/latency-histogram.ts; null when no event had a value (as in the rollups). */
  readonly histogram: number[] | null;
}

/*
 * Counts per key and histogram bucket (`histogramBucket` of rules/latency-histogram.ts in SQL,
 * the logarithm in numeric so that a value on a bucket's bound lands where exact arithmetic
 * puts it). `at` is compared with the range as is, so the planner keeps only the day
 * partitions the range overlaps (the tests EXPLAIN it).
 */
export const COUNT_RAW_EVENTS_SQL = `
  SELECT "environment", "variant_id"::text AS "variantId", "type",
    CASE WHEN "value" >= 1 THEN least(${HISTOGRAM_BUCKETS - 1}, floor(2 * log(2::numeric, "value"::numeric))::int + 1) ELSE 0 END AS "bucket",
    count(*)::float8 AS "count", count("value")::float8 AS "valued", coalesce(sum("value"), 0)::float8 AS "sum"
  FROM "usage"."events"
  WHERE "component_id" = $1 AND "at" >= $2 AND "at" < $3
  GROUP BY 1, 2, 3, 4`;

interface BucketRow {
  environment: string;
  variantId: string;
  type: UsageEventType;
  bucket: number;
  count: number;
  valued: number;
  sum: number;
}

/**
 * The raw events of one component over [from, to), counted as the minute rollups count them:
 * how tests and benchmarks prove that the rollups equal the raw events. A maintenance read,
 * not a product one (the dashboard reads the rollups). Sorted by environment, variant, type.
 */
export async function countRawEvents(
  sql: SqlReader,
  query: { componentId: string; from: Date; to: Date },
): Promise<RawEventCount[]> {
  const rows = await sql.rows<BucketRow>({ text: COUNT_RAW_EVENTS_SQL, values: [query.componentId, query.from, query.to] });
  const groups = new Map<string, { -readonly [K in keyof RawEventCount]: RawEventCount[K] }>();
  for (const row of rows) {
    const key = `${row.environment}\u0000${row.variantId}\u0000${row.type}`;
    let group = groups.get(key);
    if (!group) {
      group = { environment: row.environment, variantId: row.variantId, type: row.type, count: 0, errors: 0, sum: 0, histogram: null };
      groups.set(key, group);
    }
    group.count += row.count;
    if (row.type === 'error') group.errors += row.count;
    group.sum += row.sum;
    if (row.valued > 0) (group.histogram ??= new Array<number>(HISTOGRAM_BUCKETS).fill(0))[row.bucket]! += row.valued;
  }
  return [...groups.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, group]) => group);
}
