import type { ServedCount, UsageErrorDetail, UsageEvent, UsageRollupType } from '../entities/usage.js';
import type { Histogram } from '../rules/latency-histogram.js';

/*
 * The usage analytics store (docs/usage-analytics.md), in three ports: the ingest writes, the
 * worker keeps the tables, the dashboard and the MCP tool read. packages/db implements them
 * on PostgreSQL and PGlite; a column store could take over behind the same ports.
 */

export interface UsageWriter {
  /**
   * Atomic: the raw events, their minute rollups and their error groups are written in one
   * statement, so a raw count always equals its rollup's. Safe under concurrent calls from
   * several processes (rollups are added to, never overwritten).
   */
  append(events: readonly UsageEvent[]): Promise<void>;
  /** Adds `/consume` responses to the minute rollups (type `served`, name `consume`). Atomic. */
  addServed(counts: readonly ServedCount[]): Promise<void>;
}

export interface UsageMaintenance {
  /** Creates the raw events' daily partitions from `now`'s UTC day to `daysAhead` days after it; returns the ones it created. */
  createPartitions(now: Date, daysAhead: number): Promise<string[]>;
  /** Drops the raw events' partitions whose whole day is before `before`; returns their names. */
  dropPartitionsBefore(before: Date): Promise<string[]>;
  /**
   * Recomputes the hourly rollups of every complete hour from `from` up to `until` (exclusive,
   * whole hours) from the minute rollups, then the daily totals of the days that hold them from
   * the hourly rollups; idempotent. Returns the hours written.
   */
  rollUpHours(range: { from: Date; until: Date }): Promise<number>;
  /** Deletes minute rollups before `minutesBefore`; hourly rollups, daily totals and error groups last seen before `hoursBefore`. */
  pruneRollups(cutoffs: { minutesBefore: Date; hoursBefore: Date }): Promise<void>;
  /**
   * The latest hour with an hourly rollup at or after `since`, or null: where the rollups
   * stopped, so a worker that was down for a while catches up from there.
   */
  lastRolledHour(since: Date): Promise<Date | null>;
}

/** Sums over a range for one key; `histogram` is empty (all zeros) for types without durations. */
export interface UsageTotals {
  readonly count: number;
  readonly errors: number;
  /** Sum of the values (ms), for averages. */
  readonly sum: number;
  readonly histogram: Histogram;
}

export interface UsageBucket extends UsageTotals {
  /** Start of the bucket. */
  readonly at: Date;
  readonly environment: string;
  readonly variantId: string;
  readonly type: UsageRollupType;
}

export interface UsageErrorGroup extends UsageErrorDetail {
  readonly environment: string;
  readonly variantId: string;
  readonly count: number;
  readonly firstSeen: Date;
  readonly lastSeen: Date;
}

export interface ComponentUsageTotals extends UsageTotals {
  readonly componentId: string;
  readonly environment: string;
  readonly variantId: string;
  readonly type: UsageRollupType;
}

export interface UsageReader {
  /**
   * One component's rollups over [from, to), summed per bucket of `bucketSeconds` (60 or a
   * multiple of 3600), environment, variant and type. Whole hours come from the hourly rollups,
   * the rest from the minute rollups, and so does the latest complete hour (the worker may not
   * have rolled it up yet).
   */
  series(query: { componentId: string; from: Date; to: Date; bucketSeconds: number }): Promise<UsageBucket[]>;
  /** The component's most frequent errors last seen in [from, to), by stack hash, most counted first. */
  topErrors(query: { componentId: string; from: Date; to: Date; limit: number }): Promise<UsageErrorGroup[]>;
  /**
   * Totals per component, environment, variant and type for every component of an organization,
   * from the daily totals: whole UTC days from the one that holds `from`, up to the last hour the
   * worker rolled up (`to` bounds the days read). `sum` is 0 and `histogram` empty: an overview
   * of many components reads counts only.
   */
  organizationTotals(query: { organizationId: string; from: Date; to: Date }): Promise<ComponentUsageTotals[]>;
}
