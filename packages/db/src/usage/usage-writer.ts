import {
  addToHistogram,
  emptyHistogram,
  SERVED_TYPE,
  type ServedCount,
  type UsageEvent,
  type UsageWriter,
} from '@cp/domain';
import type { SqlReader } from '../sql-reader.js';
import { createDailyPartitions, utcDay } from './partitions.js';

const MINUTE_MS = 60_000;
const NO_PARTITION = '23514';

interface MinuteRow {
  minute: Date;
  componentId: string;
  environment: string;
  variantId: string;
  type: string;
  name: string;
  count: number;
  errors: number;
  sum: number;
  histogram: number[] | null;
}

interface ErrorGroupRow {
  componentId: string;
  environment: string;
  variantId: string;
  stackHash: string;
  errorClass: string;
  message: string;
  count: number;
  firstSeen: Date;
  lastSeen: Date;
}

// Rows of a deleted component are skipped (the rollups' foreign keys would refuse the batch).
const EXISTING = `EXISTS (SELECT 1 FROM "public"."components" c WHERE c."id" = r."component_id")`;

const ADD_MINUTES = `
  INSERT INTO "usage"."minutes" AS m ("component_id", "minute", "environment", "variant_id", "type", "name", "count", "errors", "sum", "histogram")
  SELECT r."component_id", r."minute", r."environment", r."variant_id", r."type", r."name", r."count", r."errors", r."sum", r."histogram"::int4[]
  FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::uuid[], $5::text[], $6::text[], $7::int8[], $8::int8[], $9::float8[], $10::text[])
    AS r("component_id", "minute", "environment", "variant_id", "type", "name", "count", "errors", "sum", "histogram")
  WHERE ${EXISTING}
  ON CONFLICT ("component_id", "minute", "environment", "variant_id", "type", "name") DO UPDATE SET
    "count" = m."count" + excluded."count",
    "errors" = m."errors" + excluded."errors",
    "sum" = m."sum" + excluded."sum",
    "histogram" = "usage"."histogram_add"(m."histogram", excluded."histogram")`;

const ADD_ERROR_GROUPS = `
  INSERT INTO "usage"."error_groups" AS g ("component_id", "environment", "variant_id", "stack_hash", "error_class", "message", "count", "first_seen", "last_seen")
  SELECT r.* FROM unnest($11::uuid[], $12::text[], $13::uuid[], $14::text[], $15::text[], $16::text[], $17::int8[], $18::timestamptz[], $19::timestamptz[])
    AS r("component_id", "environment", "variant_id", "stack_hash", "error_class", "message", "count", "first_seen", "last_seen")
  WHERE ${EXISTING}
  ON CONFLICT ("component_id", "environment", "variant_id", "stack_hash") DO UPDATE SET
    "error_class" = excluded."error_class",
    "message" = excluded."message",
    "count" = g."count" + excluded."count",
    "first_seen" = least(g."first_seen", excluded."first_seen"),
    "last_seen" = greatest(g."last_seen", excluded."last_seen")`;

const INSERT_EVENTS = `
  INSERT INTO "usage"."events" ("at", "component_id", "environment", "variant_id", "type", "name", "value", "cache_hit", "isolation",
    "sdk_version", "host_name", "session_id", "sequence", "sample_rate", "browser", "error_class", "error_message", "stack_hash")
  SELECT r.* FROM unnest($20::timestamptz[], $21::uuid[], $22::text[], $23::uuid[], $24::text[], $25::text[], $26::float8[], $27::bool[], $28::text[],
    $29::text[], $30::text[], $31::text[], $32::int4[], $33::float4[], $34::text[], $35::text[], $36::text[], $37::text[])
    AS r("at", "component_id", "environment", "variant_id", "type", "name", "value", "cache_hit", "isolation",
    "sdk_version", "host_name", "session_id", "sequence", "sample_rate", "browser", "error_class", "error_message", "stack_hash")
  WHERE ${EXISTING}`;

/**
 * One statement, so the raw rows, the minute rollups and the error groups of a batch are
 * written together or not at all. Rollup keys arrive sorted, so concurrent writers lock
 * rows in one order and cannot deadlock.
 */
const APPEND = `WITH "minutes" AS (${ADD_MINUTES}), "groups" AS (${ADD_ERROR_GROUPS}) ${INSERT_EVENTS}`;

const ADD_SERVED = `WITH "minutes" AS (${ADD_MINUTES}) SELECT 1`;

const minuteOf = (at: Date): Date => new Date(Math.floor(at.getTime() / MINUTE_MS) * MINUTE_MS);
const keyOf = (...parts: readonly (string | number)[]): string => parts.join('\u0000');
const sortedValues = <T>(rows: Map<string, T>): T[] =>
  [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);

function minuteRollups(events: readonly UsageEvent[]): MinuteRow[] {
  const rows = new Map<string, MinuteRow>();
  for (const event of events) {
    const minute = minuteOf(event.at);
    const key = keyOf(event.componentId, minute.getTime(), event.environment, event.variantId, event.type, event.name);
    let row = rows.get(key);
    if (!row) {
      row = { minute, componentId: event.componentId, environment: event.environment, variantId: event.variantId, type: event.type, name: event.name, count: 0, errors: 0, sum: 0, histogram: null };
      rows.set(key, row);
    }
    row.count += 1;
    if (event.type === 'error') row.errors += 1;
    if (event.value !== null) {
      row.sum += event.value;
      addToHistogram((row.histogram ??= emptyHistogram()), event.value);
    }
  }
  return sortedValues(rows);
}

function errorGroups(events: readonly UsageEvent[]): ErrorGroupRow[] {
  const rows = new Map<string, ErrorGroupRow>();
  for (const event of events) {
    if (!event.error) continue;
    const key = keyOf(event.componentId, event.environment, event.variantId, event.error.stackHash);
    const row = rows.get(key);
    if (row) {
      row.count += 1;
      row.lastSeen = event.at > row.lastSeen ? event.at : row.lastSeen;
      row.errorClass = event.error.errorClass;
      row.message = event.error.message;
    } else {
      rows.set(key, { componentId: event.componentId, environment: event.environment, variantId: event.variantId, stackHash: event.error.stackHash, errorClass: event.error.errorClass, message: event.error.message, count: 1, firstSeen: event.at, lastSeen: event.at });
    }
  }
  return sortedValues(rows);
}

const histogramText = (histogram: number[] | null): string | null => (histogram ? `{${histogram.join(',')}}` : null);

function minuteValues(rows: readonly MinuteRow[]): unknown[] {
  return [
    rows.map((r) => r.componentId),
    rows.map((r) => r.minute),
    rows.map((r) => r.environment),
    rows.map((r) => r.variantId),
    rows.map((r) => r.type),
    rows.map((r) => r.name),
    rows.map((r) => r.count),
    rows.map((r) => r.errors),
    rows.map((r) => r.sum),
    rows.map((r) => histogramText(r.histogram)),
  ];
}

function errorGroupValues(rows: readonly ErrorGroupRow[]): unknown[] {
  return [
    rows.map((r) => r.componentId),
    rows.map((r) => r.environment),
    rows.map((r) => r.variantId),
    rows.map((r) => r.stackHash),
    rows.map((r) => r.errorClass),
    rows.map((r) => r.message),
    rows.map((r) => r.count),
    rows.map((r) => r.firstSeen),
    rows.map((r) => r.lastSeen),
  ];
}

function eventValues(events: readonly UsageEvent[]): unknown[] {
  const column = <T>(pick: (event: UsageEvent) => T): T[] => events.map(pick);
  return [
    column((e) => e.at),
    column((e) => e.componentId),
    column((e) => e.environment),
    column((e) => e.variantId),
    column((e) => e.type),
    column((e) => e.name),
    column((e) => e.value),
    column((e) => e.cacheHit),
    column((e) => e.isolation),
    column((e) => e.sdkVersion),
    column((e) => e.hostName),
    column((e) => e.sessionId),
    column((e) => e.sequence),
    column((e) => e.sampleRate),
    column((e) => e.browser),
    column((e) => e.error?.errorClass ?? null),
    column((e) => e.error?.message ?? null),
    column((e) => e.error?.stackHash ?? null),
  ];
}

/** UsageWriter on PostgreSQL or PGlite (ports/usage.ts). */
export function createUsageWriter(sql: SqlReader): UsageWriter {
  /** A day without its partition yet (the worker makes them ahead; this covers a worker that is late): make it, then try once more. */
  async function withPartitions(events: readonly UsageEvent[], write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      if ((error as { code?: string }).code !== NO_PARTITION) throw error;
      const days = new Map(events.map((event) => [utcDay(event.at).getTime(), utcDay(event.at)]));
      await createDailyPartitions(sql, [...days.values()]);
      await write();
    }
  }

  return {
    async append(events) {
      if (events.length === 0) return;
      const values = [...minuteValues(minuteRollups(events)), ...errorGroupValues(errorGroups(events)), ...eventValues(events)];
      await withPartitions(events, () => sql.rows({ text: APPEND, values }));
    },
    async addServed(counts: readonly ServedCount[]) {
      if (counts.length === 0) return;
      const rows = new Map<string, MinuteRow>();
      for (const c of counts) {
        const key = keyOf(c.componentId, c.minute.getTime(), c.environment, c.variantId);
        const row = rows.get(key);
        if (row) row.count += c.count;
        else rows.set(key, { minute: c.minute, componentId: c.componentId, environment: c.environment, variantId: c.variantId, type: SERVED_TYPE, name: 'consume', count: c.count, errors: 0, sum: 0, histogram: null });
      }
      await sql.rows({ text: ADD_SERVED, values: minuteValues(sortedValues(rows)) });
    },
  };
}
