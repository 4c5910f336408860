export { createApp, type AppDeps, type WorkerApp } from './app.js';
export { parseEnv, loadEnv, type Env } from './env.js';
export { serveWorker } from './serve.js';
export { createJobRegistry, type JobDeps } from './jobs/registry.js';
export {
  defineJob,
  type Job,
  type JobDefinition,
  type QueuePolicy,
} from './jobs/job-definition.js';
export { workerSettings } from './settings.js';
export { openStaticExport, readFrameDocument } from './static-export-deps.js';
export { staticExportJob, STATIC_EXPORT_POLICY } from './jobs/static-export-job.js';
export {
  webhookDeliveryJob,
  WEBHOOK_DELIVERY_POLICY,
  type WebhookDeliveryDeps,
} from './webhooks/webhook-delivery-job.js';
export { signWebhook } from './webhooks/sign.js';
export {
  keepUsageTables,
  rollUpUsage,
  usageRetentionJob,
  usageRollupJob,
  USAGE_RETENTION_POLICY,
  USAGE_ROLLUP_POLICY,
  type UsageJobDeps,
  type UsageRetention,
} from './usage/usage-jobs.js';
export { rolloutGuardJob, ROLLOUT_GUARD_POLICY, ROLLOUT_GUARD_SCHEDULE, type RolloutGuardDeps } from './rollouts/rollout-guard-job.js';
