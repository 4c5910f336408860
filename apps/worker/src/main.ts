import { randomUUID } from 'node:crypto';
import { createJobBoss, createRepositories, createRolloutFigures, createUsageMaintenance, createWebhookDeliveryStore } from '@cp/db';
import { runService } from '@cp/http-runtime';
import { loadEnv } from './env.js';
import { createJobRegistry } from './jobs/registry.js';
import { openResources } from './resources.js';
import { serveWorker } from './serve.js';
import { openStaticExport } from './static-export-deps.js';

await runService({
  service: 'worker',
  name: 'the worker',
  settings: loadEnv(),
  // SIGTERM: stop polling, let running jobs finish (at most SHUTDOWN_GRACE_SECONDS), then the pool.
  start: async (env, log) => {
    const resources = await openResources(env);
    const { database } = resources;
    const repos = createRepositories(database);
    const staticExport =
      env.s3 === null
        ? null
        : await openStaticExport({ s3: env.s3, exportBucket: env.staticExport.bucket, prefix: env.staticExport.prefix, cacheBytes: env.staticExport.cacheBytes, repos });
    if (staticExport === null) log.warn('no S3_ENDPOINT: this worker leaves the static-export queue to another');
    const service = await serveWorker({
      boss: createJobBoss(database.jobsDb, { schedule: true }),
      jobs: createJobRegistry({
        log,
        staticExport,
        webhooks: {
          deliveries: createWebhookDeliveryStore(database.prisma),
          outbound: { allowLoopback: env.webhooksAllowLoopback },
          clock: { now: () => new Date() },
        },
        usage: { maintenance: createUsageMaintenance(database.sql), clock: { now: () => new Date() }, retention: env.usageRetention },
        rollouts: { repos, ids: { newId: randomUUID }, clock: { now: () => new Date() }, figures: createRolloutFigures(database.sql) },
      }),
      log,
      port: env.port,
      host: env.host,
      pollingIntervalSeconds: env.pollingIntervalSeconds,
      checks: { database: () => database.sql.rows({ text: 'SELECT 1', values: [] }) },
      graceSeconds: env.shutdownGraceSeconds,
    });
    return [service, resources];
  },
});
