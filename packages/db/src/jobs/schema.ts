/**
 * The PostgreSQL schema pg-boss keeps its tables in. Created by the migration
 * `*_job_queue` from pg-boss's own construction SQL, so no service runs DDL.
 */
export const JOBS_SCHEMA = 'jobs';
