export { JOBS_SCHEMA } from './schema.js';
export { Queue } from './queues.js';
export { createJobSender, type JobSender, type SendJobOptions } from './job-sender.js';
export { createJobBoss, PgBoss } from './job-boss.js';
export {
  poolExecutor,
  pgliteExecutor,
  transactionExecutor,
  type SqlExecutor,
} from './sql-executor.js';
