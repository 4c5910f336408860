import type { StaticExportDeps } from '@cp/consume';
import type { Logger } from '@cp/http-runtime';
import { rolloutGuardJob, type RolloutGuardDeps } from '../rollouts/rollout-guard-job.js';
import { usageRetentionJob, usageRollupJob, type UsageJobDeps } from '../usage/usage-jobs.js';
import { webhookDeliveryJob, type WebhookDeliveryDeps } from '../webhooks/webhook-delivery-job.js';
import type { JobDefinition } from './job-definition.js';
import { staticExportJob } from './static-export-job.js';

/** What the job handlers run on. Each handler takes the part it needs. */
export interface JobDeps {
  readonly log: Logger;
  /** The static export (object stores, repositories); null: this worker has no S3 settings and leaves that queue to another. */
  readonly staticExport?: StaticExportDeps | null;
  readonly webhooks: WebhookDeliveryDeps;
  /** The usage analytics' tables (docs/usage-analytics.md, "Jobs"). */
  readonly usage: Omit<UsageJobDeps, 'log'>;
  /** The rollout guard: repositories, ids, clock, and session figures from usage analytics. */
  readonly rollouts: Omit<RolloutGuardDeps, 'log'>;
}

/**
 * Every queue the worker runs, one entry each (`defineJob({ queue, policy, handler })`).
 * Adding a queue: its name in packages/db/src/jobs/queues.ts, a migration that creates it,
 * an entry here (apps/worker/README.md, "Adding a queue").
 */
export function createJobRegistry(deps: JobDeps): JobDefinition[] {
  const usage = { ...deps.usage, log: deps.log };
  const jobs: JobDefinition[] = [
    webhookDeliveryJob(deps.webhooks),
    usageRollupJob(usage),
    usageRetentionJob(usage),
    rolloutGuardJob({ ...deps.rollouts, log: deps.log }),
  ];
  if (deps.staticExport) jobs.push(staticExportJob({ ...deps.staticExport, log: deps.log }));
  return jobs;
}
