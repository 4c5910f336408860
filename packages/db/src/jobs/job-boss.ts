import PgBoss from 'pg-boss';
import { JOBS_SCHEMA } from './schema.js';
import type { SqlExecutor } from './sql-executor.js';

export { PgBoss };

/**
 * The pg-boss instance a worker starts, on the service's own connection (`Database.jobsDb`):
 * the same code on PostgreSQL and PGlite. `migrate: false`: the schema comes from the
 * migrations, and `start()` refuses a schema of another pg-boss version instead of
 * changing it. No cron (`schedule: false`): nothing here is scheduled.
 */
export function createJobBoss(
  db: SqlExecutor,
  options: { maintenanceIntervalSeconds?: number } = {},
): PgBoss {
  return new PgBoss({
    db,
    schema: JOBS_SCHEMA,
    migrate: false,
    schedule: false,
    supervise: true,
    ...(options.maintenanceIntervalSeconds
      ? { maintenanceIntervalSeconds: options.maintenanceIntervalSeconds }
      : {}),
  });
}
