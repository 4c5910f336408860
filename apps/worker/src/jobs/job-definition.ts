import type { PgBoss } from '@cp/db';

/** How a queue retries and expires its jobs (pg-boss queue options). */
export interface QueuePolicy {
  /** Retries after the first attempt. */
  readonly retryLimit: number;
  /** Seconds before the first retry; with `retryBackoff`, doubled at each retry (pg-boss adds up to as much again at random). */
  readonly retryDelay: number;
  readonly retryBackoff: boolean;
  /** An attempt running longer than this is failed (and retried). */
  readonly expireInSeconds: number;
  /**
   * pg-boss's queue policy (default "standard"). "stately": at most one job waiting and one
   * running, so scheduled rounds never pile up behind a slow one, whatever the number of workers.
   */
  readonly policy?: 'standard' | 'stately';
}

/** A job as a handler receives it: its data and where it stands in its retries. */
export type Job<T> = PgBoss.JobWithMetadata<T>;

/**
 * One entry of the worker's registry (registry.ts): a queue, its policy, and what runs each job.
 * A handler that throws fails the attempt: pg-boss retries it per `policy`. Handlers must be
 * idempotent: after a crash mid-job the attempt runs again.
 */
export interface JobDefinition<T extends object = object> {
  readonly queue: string;
  readonly policy: QueuePolicy;
  readonly handler: (job: Job<T>) => Promise<void>;
  /**
   * A cron expression (UTC, minutes at the finest): the worker writes it to pg-boss's schedules
   * at start, and one job is sent per due time across every worker.
   */
  readonly schedule?: string;
}

/** Keeps `T` checked inside the entry while the registry holds entries of different data types. */
export const defineJob = <T extends object>(definition: JobDefinition<T>): JobDefinition<object> =>
  definition as unknown as JobDefinition<object>;
