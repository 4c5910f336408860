import type { PgBoss } from '@cp/db';
import {
  type Logger,
  type Metrics,
  type ReadinessCheck,
  type RunningService,
  serveHttp,
} from '@cp/http-runtime';
import { createApp, type WorkerApp } from './app.js';
import type { JobDefinition } from './jobs/job-definition.js';

/** Starts working the queues and listens for `/`, `/ready` and `/metrics`. Closing drains both. */
export async function serveWorker(options: {
  boss: PgBoss;
  jobs: readonly JobDefinition[];
  log: Logger;
  port: number;
  host?: string | undefined;
  pollingIntervalSeconds?: number;
  checks?: Record<string, ReadinessCheck>;
  /** SHUTDOWN_GRACE_SECONDS (default 10): how long running jobs may finish after `close()`. */
  graceSeconds?: number;
}): Promise<RunningService<Metrics>> {
  const { log } = options;
  let app!: WorkerApp;
  const server = await serveHttp({
    listener: (draining) => {
      app = createApp({ ...options, draining });
      return app.listener;
    },
    port: options.port,
    host: options.host,
    graceSeconds: options.graceSeconds,
    log,
  });
  try {
    await app.start();
  } catch (error) {
    await server.close();
    throw error;
  }
  log.info({ port: server.port }, 'worker listening');
  return {
    name: 'Worker',
    url: `http://localhost:${server.port}`,
    port: server.port,
    metrics: app.metrics,
    async close() {
      const graceMs = (options.graceSeconds ?? 10) * 1000;
      await Promise.all([app.stop({ graceful: true, timeoutMs: graceMs }), server.close()]);
    },
  };
}
