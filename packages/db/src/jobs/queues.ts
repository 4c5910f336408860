/**
 * Queue names, shared by whoever enqueues (repositories, inside a transaction) and the worker
 * that runs them (apps/worker/src/jobs/registry.ts). A new queue also needs a migration that
 * creates it (`SELECT jobs.create_queue(...)`, see the `*_job_queue` migration).
 */
export const Queue = {
  /** One delivery of one webhook message to one endpoint (`{ messageId }`). */
  WebhookDelivery: 'webhook-delivery',
  /** Brings one organization's static export in line with its releases (`{ organizationId, full? }`). */
  StaticExport: 'static-export',
  /** Rolls the usage analytics' complete hours up from the minutes (`{}`; cron, docs/usage-analytics.md). */
  UsageRollup: 'usage-rollup',
  /** The usage analytics' day partitions ahead and past retention, and the rollups past theirs (`{}`; cron). */
  UsageRetention: 'usage-retention',
  /** Evaluates every live rollout against its guard (`{}`; cron, docs/experiences.md "The guard"). */
  RolloutGuard: 'rollout-guard',
} as const;
export type Queue = (typeof Queue)[keyof typeof Queue];
