import type { Prisma } from '../generated/prisma/client.js';
import type { JobSender } from '../jobs/job-sender.js';
import { Queue } from '../jobs/queues.js';

/** Enqueues a `static-export` job of the organization inside `tx` (the change's transaction). */
export type EnqueueStaticExport = (
  tx: Prisma.TransactionClient,
  job: { organizationId: string; full?: boolean },
) => Promise<void>;

/** Over the job queue: the job commits or rolls back with the change. */
export const staticExportQueue =
  (jobs: JobSender): EnqueueStaticExport =>
  async (tx, job) => {
    await jobs.send(tx, Queue.StaticExport, job);
  };

/**
 * Inside `tx`: a job for the organization only when it opted in, read under a share lock so
 * that a concurrent switch (an UPDATE of the row) either waits for this change or is seen by it.
 */
export async function enqueueIfExporting(
  tx: Prisma.TransactionClient,
  organizationId: string,
  enqueue: EnqueueStaticExport,
): Promise<void> {
  const [row] = await tx.$queryRaw<{ enabled: boolean }[]>`
    SELECT enabled FROM static_exports WHERE organization_id = ${organizationId}::uuid FOR SHARE`;
  if (row?.enabled) await enqueue(tx, { organizationId });
}
