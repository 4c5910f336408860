import { runStaticExport, type StaticExportDeps, type StaticExportJob } from '@cp/consume';
import { Queue } from '@cp/db';
import type { Logger } from '@cp/http-runtime';
import { defineJob, type JobDefinition, type QueuePolicy } from './job-definition.js';

/** As the migration creates the queue: ten retries, 30 s doubling (about 8.5 hours in all). */
export const STATIC_EXPORT_POLICY: QueuePolicy = {
  retryLimit: 10,
  retryDelay: 30,
  retryBackoff: true,
  expireInSeconds: 300,
};

/**
 * The `static-export` queue: brings one organization's export in line with its releases
 * (docs/static-export.md). A failed write throws, so pg-boss retries the job with
 * backoff; the release that queued it committed long before.
 */
export function staticExportJob(
  deps: StaticExportDeps & { log: Logger },
  policy: QueuePolicy = STATIC_EXPORT_POLICY,
): JobDefinition {
  return defineJob<StaticExportJob>({
    queue: Queue.StaticExport,
    policy,
    async handler(job) {
      const { organizationId, full } = job.data;
      try {
        const run = await runStaticExport({ organizationId, full: full === true }, deps);
        deps.log.info({ organizationId, ...run }, 'static export');
      } catch (error) {
        deps.log.warn(
          { organizationId, attempt: job.retryCount + 1, err: error },
          'static export failed; it will be retried',
        );
        throw error;
      }
    },
  });
}
