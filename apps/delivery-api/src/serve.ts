import { createServer } from 'node:http';
import type { ObjectStore, Repositories } from '@cp/domain';
import { drainable, listen, type Metrics, type ReadinessCheck } from '@cp/http-runtime';
import { createApp } from './app.js';
import type { ChangeFeed } from './changes/change-feed.js';
import type { AppConfig } from './config.js';
import type { Logger } from './log.js';

/** A service listening on a port, as main.ts and the embedded stack see it. */
export interface RunningService {
  readonly name: string;
  readonly url: string;
  /** The bound port (useful with port 0). */
  readonly port: number;
  readonly metrics: Metrics;
  /**
   * Graceful: stops accepting, lets in-flight requests finish for at most the
   * grace period, closes what is left, then stops the change feed.
   */
  close(): Promise<void>;
}

/** Builds the app from ready dependencies and listens. Closing also closes the change feed. */
export async function serveDelivery(options: {
  config: AppConfig;
  host?: string | undefined;
  repos: Repositories;
  objects: ObjectStore;
  changes: ChangeFeed;
  log: Logger;
  /** SHUTDOWN_GRACE_SECONDS (default 10). */
  graceSeconds?: number;
  checks?: Record<string, ReadinessCheck>;
}): Promise<RunningService> {
  const { config, log } = options;
  let draining = () => false;
  const app = createApp({ ...options, draining: () => draining() });
  const server = createServer({ keepAliveTimeout: 65_000 }, app.listener);
  // Slow clients must not pin sockets: bounded header and request times.
  server.headersTimeout = 15_000;
  server.requestTimeout = 30_000;
  const drain = drainable(server, (options.graceSeconds ?? 10) * 1000);
  draining = () => drain.draining;
  const port = await listen(server, config.port, options.host);
  log.info({ port, publicUrl: config.publicUrl }, 'delivery API listening');
  void options.changes.listening.then(() => log.info('following change notifications'));
  return {
    name: 'Delivery API',
    url: config.publicUrl,
    port,
    metrics: app.metrics,
    async close() {
      const { forced } = await drain.drain();
      if (forced) log.warn('grace period over: open connections were closed');
      app.close();
      await options.changes.close();
    },
  };
}
