import PgBoss from 'pg-boss';
import { JOBS_SCHEMA } from './schema.js';
import type { SqlExecutor } from './sql-executor.js';

export { PgBoss };

/**
 * The pg-boss instance a worker starts, on the service's own connection (`Database.jobsDb`):
 * the same code on PostgreSQL and PGlite. `migrate: false`: the schema comes from the
 * migrations, and `start()` refuses a schema of another pg-boss version instead of
 * changing it. With `schedule`, the cron schedules run: the worker checks the schedules (`jobs.schedule`,
 * written by the worker at start) and sends a due job at most once per minute across all
 * workers (pg-boss's singleton send); the queue's policy then keeps one job waiting at most.
 * Off by default: a process that runs no scheduled job (a test's worker) has no clock queries in flight.
 * The queue these sends go through comes from a migration too (`*_usage_maintenance_queues`).
 */
export function createJobBoss(
  db: SqlExecutor,
  options: { maintenanceIntervalSeconds?: number; schedule?: boolean } = {},
): PgBoss {
  return new PgBoss({
    db,
    schema: JOBS_SCHEMA,
    migrate: false,
    schedule: options.schedule ?? false,
    supervise: true,
    ...(options.maintenanceIntervalSeconds
      ? { maintenanceIntervalSeconds: options.maintenanceIntervalSeconds }
      : {}),
  });
}
