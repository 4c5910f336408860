import PgBoss from 'pg-boss';
import type { Prisma } from '../generated/prisma/client.js';
import { JOBS_SCHEMA } from './schema.js';
import { transactionExecutor } from './sql-executor.js';

export interface SendJobOptions {
  /** The job's id (a UUID): a second send with the same id is ignored. */
  readonly id?: string;
  /** Seconds to wait before the first attempt. */
  readonly startAfterSeconds?: number;
}

/**
 * Enqueues jobs inside a change's transaction: the job and the change commit or roll back
 * together, so a job is never lost (committed change, no job) nor phantom (job, no change).
 */
export interface JobSender {
  send(
    tx: Prisma.TransactionClient,
    queue: string,
    data: object,
    options?: SendJobOptions,
  ): Promise<string>;
}

/**
 * pg-boss's own `send` (its SQL, its defaults, the queue's retry policy copied onto the job),
 * run on `tx`. This instance is never started and has no connection of its own: every call
 * names the transaction it runs in.
 */
export function createJobSender(): JobSender {
  const boss = new PgBoss({
    schema: JOBS_SCHEMA,
    db: {
      executeSql: () => Promise.reject(new Error('the job sender runs only inside a transaction')),
    },
  });
  return {
    async send(tx, queue, data, options = {}) {
      const id = await boss.send(queue, data, {
        db: transactionExecutor(tx),
        ...(options.id ? { id: options.id } : {}),
        ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
      });
      if (id === null && !options.id) throw new Error(`pg-boss did not enqueue a job on ${queue}`);
      return id ?? options.id!;
    },
  };
}
