import type { UsageMaintenance } from '@cp/domain';
import type { SqlReader } from '../sql-reader.js';
import { histogramSum } from './histogram-sum.js';
import { addDays, createDailyPartitions, partitionName, utcDay } from './partitions.js';

const HOUR_MS = 3_600_000;
const PARTITION = /^events_(\d{4})(\d{2})(\d{2})$/;

const floorHour = (at: Date): Date => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
const ceilHour = (at: Date): Date => new Date(Math.ceil(at.getTime() / HOUR_MS) * HOUR_MS);

/** The UTC day a partition holds, from its name (`events_20261126`); null for any other table. */
function partitionDay(name: string): Date | null {
  const match = PARTITION.exec(name);
  return match ? new Date(`${match[1]}-${match[2]}-${match[3]}T00:00:00Z`) : null;
}

/*
 * Each complete hour is recomputed from its minutes and replaces what was there, so a second
 * run, or a run after late minutes arrived, leaves the same figures as one run over complete
 * data. `date_bin` cuts UTC hours whatever the session's time zone. Rows are written in key
 * order, so two workers rolling up the same hours lock them in one order and cannot deadlock.
 */
const ROLL_UP_HOURS = `
  WITH "written" AS (
    INSERT INTO "usage"."hours" AS h ("component_id", "hour", "environment", "variant_id", "type", "name", "count", "errors", "sum", "histogram")
    SELECT "component_id", date_bin('1 hour', "minute", TIMESTAMPTZ '2000-01-01T00:00:00Z') AS "hour", "environment", "variant_id", "type", "name",
      sum("count"), sum("errors"), sum("sum"),
      CASE WHEN count("histogram") = 0 THEN NULL ELSE ${histogramSum('"histogram"', 'int4')} END
    FROM "usage"."minutes"
    WHERE "minute" >= $1 AND "minute" < $2
    GROUP BY 1, 2, 3, 4, 5, 6
    ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT ("component_id", "hour", "environment", "variant_id", "type", "name") DO UPDATE SET
      "count" = excluded."count",
      "errors" = excluded."errors",
      "sum" = excluded."sum",
      "histogram" = excluded."histogram"
    RETURNING h."hour"
  )
  SELECT count(DISTINCT "hour")::int AS "hours" FROM "written"`;

/** The days that hold the hours just rolled, recomputed whole from the hourly rollups (a second statement: it reads what the first wrote). */
const ROLL_UP_DAYS = `
  INSERT INTO "usage"."days" AS d ("component_id", "day", "environment", "variant_id", "type", "count", "errors")
  SELECT "component_id", date_bin('1 day', "hour", TIMESTAMPTZ '2000-01-01T00:00:00Z'), "environment", "variant_id", "type", sum("count"), sum("errors")
  FROM "usage"."hours"
  WHERE "hour" >= $1 AND "hour" < $2
  GROUP BY 1, 2, 3, 4, 5
  ORDER BY 1, 2, 3, 4, 5
  ON CONFLICT ("component_id", "day", "environment", "variant_id", "type") DO UPDATE SET
    "count" = excluded."count",
    "errors" = excluded."errors"`;

const PRUNE_ROLLUPS = `
  WITH "minutes" AS (DELETE FROM "usage"."minutes" WHERE "minute" < $1),
       "hours" AS (DELETE FROM "usage"."hours" WHERE "hour" < $2),
       "days" AS (DELETE FROM "usage"."days" WHERE "day" < $2)
  DELETE FROM "usage"."error_groups" WHERE "last_seen" < $2`;

// The end of the index on `hour`.
const LAST_ROLLED_HOUR = `SELECT max("hour") AS "hour" FROM "usage"."hours" WHERE "hour" >= $1`;

const PARTITIONS = `
  SELECT c.relname AS "name" FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
  WHERE i.inhparent = 'usage.events'::regclass`;

/*
 * Planned for their values at every call: a generic plan cannot tell a few recent hours (the
 * index) from months of them (a scan), and the DDL names a new table each day (a named statement
 * per day and connection, for as long as the worker runs).
 */
const EACH_CALL = { planEachCall: true } as const;

/** UsageMaintenance on PostgreSQL or PGlite (ports/usage.ts); the worker's usage jobs run it. */
export function createUsageMaintenance(sql: SqlReader): UsageMaintenance {
  return {
    async createPartitions(now, daysAhead) {
      const today = utcDay(now);
      return createDailyPartitions(sql, Array.from({ length: daysAhead + 1 }, (_, i) => addDays(today, i)));
    },

    async dropPartitionsBefore(before) {
      const partitions = await sql.rows<{ name: string }>({ text: PARTITIONS, values: [] });
      const dropped: string[] = [];
      for (const { name } of partitions.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const day = partitionDay(name);
        // Only whole days before the cutoff; the name is checked against ours before it goes into DDL.
        if (!day || addDays(day, 1) > before || partitionName(day) !== name) continue;
        // IF EXISTS: another worker may have dropped it since the listing.
        await sql.rows({ text: `DROP TABLE IF EXISTS "usage"."${name}"`, values: [] }, EACH_CALL);
        dropped.push(name);
      }
      return dropped;
    },

    async rollUpHours({ from, until }) {
      const start = ceilHour(from);
      const end = floorHour(until);
      if (start >= end) return 0;
      const [row] = await sql.rows<{ hours: number }>({ text: ROLL_UP_HOURS, values: [start, end] }, EACH_CALL);
      await sql.rows({ text: ROLL_UP_DAYS, values: [utcDay(start), addDays(utcDay(new Date(end.getTime() - 1)), 1)] }, EACH_CALL);
      return row?.hours ?? 0;
    },

    async pruneRollups({ minutesBefore, hoursBefore }) {
      await sql.rows({ text: PRUNE_ROLLUPS, values: [minutesBefore, hoursBefore] }, EACH_CALL);
    },

    async lastRolledHour(since) {
      const [row] = await sql.rows<{ hour: Date | null }>({ text: LAST_ROLLED_HOUR, values: [since] }, EACH_CALL);
      return row?.hour ?? null;
    },
  };
}
