import {
  type ComponentUsageTotals,
  type UsageBucket,
  type UsageErrorGroup,
  type UsageReader,
  type UsageRollupType,
} from '@cp/domain';
import type { SqlReader } from '../sql-reader.js';
import { histogramSum } from './histogram-sum.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/**
 * One component's rows over a range, each read by its primary key's prefix
 * (component, time): the whole hours [$3, $4) from the hourly rollups, the minutes of the
 * edges [$2, $5) and [$6, $7) from the minute rollups.
 */
const ROWS_OF = (component: string): string => `
  SELECT h."hour" AS "at", h."environment", h."variant_id", h."type", h."count", h."errors", h."sum", h."histogram"
  FROM "usage"."hours" h WHERE h."component_id" = ${component} AND h."hour" >= $3 AND h."hour" < $4
  UNION ALL
  SELECT m."minute", m."environment", m."variant_id", m."type", m."count", m."errors", m."sum", m."histogram"
  FROM "usage"."minutes" m WHERE m."component_id" = ${component} AND m."minute" >= $2 AND m."minute" < $5
  UNION ALL
  SELECT m."minute", m."environment", m."variant_id", m."type", m."count", m."errors", m."sum", m."histogram"
  FROM "usage"."minutes" m WHERE m."component_id" = ${component} AND m."minute" >= $6 AND m."minute" < $7`;

const SUMS = `sum(r."count")::float8 AS "count", sum(r."errors")::float8 AS "errors", sum(r."sum") AS "sum",
  ${histogramSum('r."histogram"', 'float8')} AS "histogram"`;

// Buckets start at multiples of $8 seconds since the epoch (a UTC day for a day).
const SERIES = `
  SELECT to_timestamp(floor(extract(epoch FROM r."at") / $8) * $8) AS "at", r."environment", r."variant_id" AS "variantId", r."type", ${SUMS}
  FROM (${ROWS_OF('$1')}) r
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`;

const ORGANIZATION_TOTALS = `
  SELECT c."id" AS "componentId", d."environment", d."variant_id" AS "variantId", d."type",
    sum(d."count")::float8 AS "count", sum(d."errors")::float8 AS "errors"
  FROM "public"."components" c JOIN "usage"."days" d ON d."component_id" = c."id" AND d."day" >= $2 AND d."day" < $3
  WHERE c."organization_id" = $1
  GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`;

const TOP_ERRORS = `
  SELECT g."environment", g."variant_id" AS "variantId", g."stack_hash" AS "stackHash", g."error_class" AS "errorClass",
    g."message", g."count"::float8 AS "count", g."first_seen" AS "firstSeen", g."last_seen" AS "lastSeen"
  FROM "usage"."error_groups" g
  WHERE g."component_id" = $1 AND g."last_seen" >= $2 AND g."last_seen" < $3
  ORDER BY g."count" DESC, g."last_seen" DESC, g."stack_hash"
  LIMIT $4`;

interface TotalsRow {
  environment: string;
  variantId: string;
  type: UsageRollupType;
  count: number;
  errors: number;
  sum: number;
  histogram: number[];
}

/**
 * The range's pieces: whole hours inside it from the hourly rollups, the minutes before the
 * first whole hour and after the last one from the minute rollups. The latest complete hour
 * is read from the minutes too: the worker rolls an hour up some time after it ends, and
 * until then the hourly rollups do not hold it. A range inside one hour is all edge.
 */
function rangeValues(from: Date, to: Date): Date[] {
  const hoursFrom = new Date(Math.ceil(from.getTime() / HOUR_MS) * HOUR_MS);
  const hoursTo = new Date(Math.max(hoursFrom.getTime(), (Math.floor(to.getTime() / HOUR_MS) - 1) * HOUR_MS));
  const leadTo = new Date(Math.min(hoursFrom.getTime(), to.getTime()));
  return [from, hoursFrom, hoursTo, leadTo, hoursTo, to];
}

const totals = (row: TotalsRow) => ({
  environment: row.environment,
  variantId: row.variantId,
  type: row.type,
  count: row.count,
  errors: row.errors,
  sum: row.sum,
  histogram: row.histogram,
});

/** UsageReader on PostgreSQL or PGlite (ports/usage.ts), on the driver. */
export function createUsageReader(sql: SqlReader): UsageReader {
  return {
    async series({ componentId, from, to, bucketSeconds }) {
      if (!(bucketSeconds === 60 || (bucketSeconds > 0 && bucketSeconds % 3600 === 0))) {
        throw new RangeError(`bucketSeconds must be 60 or a multiple of 3600, not ${bucketSeconds}.`);
      }
      const rows = await sql.rows<TotalsRow & { at: Date }>({
        text: SERIES,
        values: [componentId, ...rangeValues(from, to), bucketSeconds],
      });
      return rows.map((row): UsageBucket => ({ at: row.at, ...totals(row) }));
    },
    async topErrors({ componentId, from, to, limit }) {
      return sql.rows<UsageErrorGroup>({ text: TOP_ERRORS, values: [componentId, from, to, limit] });
    },
    async organizationTotals({ organizationId, from, to }) {
      const rows = await sql.rows<Omit<TotalsRow, 'sum' | 'histogram'> & { componentId: string }>({
        text: ORGANIZATION_TOTALS,
        values: [organizationId, new Date(Math.floor(from.getTime() / DAY_MS) * DAY_MS), to],
      });
      return rows.map((row): ComponentUsageTotals => ({ ...row, sum: 0, histogram: [] }));
    },
  };
}
