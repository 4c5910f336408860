import { Queue } from '@cp/db';
import type { Clock, UsageMaintenance } from '@cp/domain';
import type { Logger } from '@cp/http-runtime';
import { defineJob, type JobDefinition, type QueuePolicy } from '../jobs/job-definition.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** How long each table of the usage analytics keeps its rows (worker settings, docs/settings.md). */
export interface UsageRetention {
  /** Raw events: whole UTC days (USAGE_RAW_RETENTION_DAYS). */
  readonly rawDays: number;
  /** Minute rollups (USAGE_MINUTE_RETENTION_HOURS). */
  readonly minuteHours: number;
  /** Hourly rollups and error groups (USAGE_HOUR_RETENTION_MONTHS). */
  readonly hourMonths: number;
}

export interface UsageJobDeps {
  readonly maintenance: UsageMaintenance;
  readonly clock: Clock;
  readonly retention: UsageRetention;
  readonly log: Logger;
}

/** Day partitions made ahead of time, so the ingest never makes one itself. */
export const PARTITION_DAYS_AHEAD = 3;
/**
 * Complete hours recomputed by each round: the ingest stamps events with its own clock and
 * writes them within seconds, so only the last hour can still change; the cost of a round is
 * in proportion to the hours it recomputes. The hourly retention round looks further back, for
 * minutes held up longer (an ingest that retried through a database outage). A longer gap (a
 * worker that was stopped) is caught up from the last rolled hour by either.
 */
export const ROLLUP_LOOKBACK_HOURS = 1;
export const RETENTION_LOOKBACK_HOURS = 6;
/** Every five minutes: a closed hour shows up in the hourly rollups soon after. */
export const USAGE_ROLLUP_SCHEDULE = '*/5 * * * *';
/** Hourly: partitions and pruning move by days, an hour late is nothing. */
export const USAGE_RETENTION_SCHEDULE = '7 * * * *';

// As the migration creates the queues; a failed round is retried, and the next one comes anyway.
export const USAGE_ROLLUP_POLICY: QueuePolicy = { retryLimit: 2, retryDelay: 30, retryBackoff: false, expireInSeconds: 600, policy: 'stately' };
export const USAGE_RETENTION_POLICY: QueuePolicy = { retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 900, policy: 'stately' };

const floorHour = (at: Date): Date => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);
const ceilHour = (at: Date): Date => new Date(Math.ceil(at.getTime() / HOUR_MS) * HOUR_MS);
const utcDay = (at: Date): Date => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);

/** `months` calendar months before `at` (UTC), the day clamped to the shorter month. */
export function monthsBefore(at: Date, months: number): Date {
  const target = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() - months, 1, at.getUTCHours(), at.getUTCMinutes(), at.getUTCSeconds(), at.getUTCMilliseconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(at.getUTCDate(), lastDay));
  return target;
}

/** The oldest hour whose minutes are all still kept: rolling up an older one would replace it with a part. */
const oldestWholeHour = (now: Date, retention: UsageRetention): Date => ceilHour(new Date(now.getTime() - retention.minuteHours * HOUR_MS));

/**
 * Recomputes the last complete hours from the minute rollups, from further back when the last
 * rolled hour is older (a worker that was down), never from before the minutes kept.
 * Returns the range it rolled up.
 */
export async function rollUpUsage(
  deps: Pick<UsageJobDeps, 'maintenance' | 'clock' | 'retention'>,
  lookbackHours: number = ROLLUP_LOOKBACK_HOURS,
): Promise<{ from: Date; until: Date; hours: number }> {
  const now = deps.clock.now();
  const until = floorHour(now);
  const oldest = oldestWholeHour(now, deps.retention);
  const last = await deps.maintenance.lastRolledHour(oldest);
  let from = new Date(until.getTime() - lookbackHours * HOUR_MS);
  const resume = last === null ? oldest : new Date(last.getTime() + HOUR_MS);
  if (resume < from) from = resume;
  if (from < oldest) from = oldest;
  const hours = from < until ? await deps.maintenance.rollUpHours({ from, until }) : 0;
  return { from, until, hours };
}

/**
 * The retention round: the day partitions to PARTITION_DAYS_AHEAD, the raw days past
 * retention dropped (never the current day), then the rollups brought up to date (the last
 * RETENTION_LOOKBACK_HOURS) before the
 * minutes past their retention are deleted, and the hourly rollups and error groups past theirs.
 */
export async function keepUsageTables(deps: Pick<UsageJobDeps, 'maintenance' | 'clock' | 'retention'>) {
  const now = deps.clock.now();
  const today = utcDay(now);
  const created = await deps.maintenance.createPartitions(now, PARTITION_DAYS_AHEAD);
  const rawBefore = new Date(today.getTime() - Math.max(1, deps.retention.rawDays) * DAY_MS);
  const dropped = await deps.maintenance.dropPartitionsBefore(rawBefore);
  const rolled = await rollUpUsage(deps, RETENTION_LOOKBACK_HOURS);
  const minutesBefore = floorHour(new Date(now.getTime() - deps.retention.minuteHours * HOUR_MS));
  const hoursBefore = monthsBefore(now, deps.retention.hourMonths);
  await deps.maintenance.pruneRollups({ minutesBefore, hoursBefore });
  return { created, dropped, rolledHours: rolled.hours, minutesBefore, hoursBefore };
}

/** The `usage-rollup` queue, every few minutes (USAGE_ROLLUP_SCHEDULE). */
export function usageRollupJob(deps: UsageJobDeps, policy: QueuePolicy = USAGE_ROLLUP_POLICY): JobDefinition {
  return defineJob<Record<string, never>>({
    queue: Queue.UsageRollup,
    policy,
    schedule: USAGE_ROLLUP_SCHEDULE,
    async handler() {
      const { from, until, hours } = await rollUpUsage(deps);
      deps.log.debug({ from, until, hours }, 'usage rollup');
    },
  });
}

/** The `usage-retention` queue, hourly (USAGE_RETENTION_SCHEDULE). */
export function usageRetentionJob(deps: UsageJobDeps, policy: QueuePolicy = USAGE_RETENTION_POLICY): JobDefinition {
  return defineJob<Record<string, never>>({
    queue: Queue.UsageRetention,
    policy,
    schedule: USAGE_RETENTION_SCHEDULE,
    async handler() {
      const round = await keepUsageTables(deps);
      deps.log.info(round, 'usage retention');
    },
  });
}
