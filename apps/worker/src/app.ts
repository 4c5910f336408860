import type { RequestListener } from 'node:http';
import type { PgBoss } from '@cp/db';
import {
  createMetrics,
  createReadiness,
  type Logger,
  type Metrics,
  type ReadinessCheck,
} from '@cp/http-runtime';
import type { JobDefinition } from './jobs/job-definition.js';

export interface AppDeps {
  /** pg-boss over the service's database (`createJobBoss(database.jobsDb)`), not started. */
  readonly boss: PgBoss;
  /** The registry (`createJobRegistry`). */
  readonly jobs: readonly JobDefinition[];
  readonly log: Logger;
  /** How often an idle queue is polled (pg-boss: at least 0.5). Default 2. */
  readonly pollingIntervalSeconds?: number;
  /** `GET /ready`'s probes (the database). */
  readonly checks?: Record<string, ReadinessCheck>;
  readonly draining?: () => boolean;
}

export interface WorkerApp {
  /** `GET /` (liveness), `GET /ready`, `GET /metrics`. */
  readonly listener: RequestListener;
  readonly metrics: Metrics;
  /** Starts pg-boss, applies each queue's policy and begins working. */
  start(): Promise<void>;
  /**
   * Stops polling. Graceful: waits (up to `timeoutMs`) for running jobs; otherwise they are
   * failed at once and retried later (as after a crash).
   */
  stop(options?: { graceful?: boolean; timeoutMs?: number }): Promise<void>;
}

/** The worker from ready dependencies: what tests and `pnpm start` build, what main.ts serves. */
export function createApp(deps: AppDeps): WorkerApp {
  const { boss, jobs, log } = deps;
  const metrics = createMetrics({ service: 'worker' });
  const results = metrics.counter('worker_jobs_total', 'Job attempts by queue and result', [
    'queue',
    'result',
  ]);
  const readiness = createReadiness({ checks: deps.checks ?? {}, draining: deps.draining, metrics });
  boss.on('error', (error) => log.error({ err: error }, 'job queue error'));

  const work = async (definition: JobDefinition) => {
    const { queue, policy, handler, schedule } = definition;
    // Queues come from migrations (no service runs DDL); a missing one is a missing migration.
    if (!(await boss.getQueue(queue)))
      throw new Error(
        `The job queue "${queue}" does not exist: add a migration that creates it (apps/worker/README.md, "Adding a queue").`,
      );
    await boss.updateQueue(queue, { name: queue, ...policy });
    // An upsert: every worker writes the same schedule; pg-boss sends each due job once.
    if (schedule) await boss.schedule(queue, schedule, {}, { tz: 'UTC' });
    await boss.work<object>(
      queue,
      {
        pollingIntervalSeconds: deps.pollingIntervalSeconds ?? 2,
        batchSize: 1,
        includeMetadata: true,
      },
      async ([job]) => {
        if (!job) return;
        try {
          await handler(job);
          results.inc({ queue, result: 'completed' });
        } catch (error) {
          results.inc({ queue, result: 'failed' });
          log.warn(
            { queue, jobId: job.id, retryCount: job.retryCount, err: error },
            'job attempt failed',
          );
          throw error;
        }
      },
    );
  };

  return {
    metrics,
    listener(req, res) {
      const path = (req.url ?? '/').split('?')[0];
      if (req.method === 'GET' && path === '/') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
        res.end(JSON.stringify({ status: 'ok', queues: jobs.map((job) => job.queue) }));
      } else if (req.method === 'GET' && path === '/ready') readiness.handler(req, res);
      else if (req.method === 'GET' && path === '/metrics') metrics.handler(req, res);
      else {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ error: 'not_found' }));
      }
    },
    async start() {
      await boss.start();
      for (const definition of jobs) await work(definition);
      log.info({ queues: jobs.map((job) => job.queue) }, 'worker started');
    },
    async stop(options = {}) {
      await boss.stop({
        graceful: options.graceful ?? true,
        wait: true,
        close: false,
        timeout: options.timeoutMs ?? 10_000,
      });
    },
  };
}
