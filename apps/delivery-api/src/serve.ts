import type { ObjectStore, Repositories, UsageWriter } from '@cp/domain';
import { type Metrics, type ReadinessCheck, type RunningService, serveHttp } from '@cp/http-runtime';
import { createRedisClient } from '@cp/http-runtime/rate-limit';
import { createApp, type DeliveryApp } from './app.js';
import type { ChangeFeed } from './changes/change-feed.js';
import type { AppConfig } from './config.js';
import { type HostSdkFile, readHostFrameFile, readHostSdkFile } from './host-sdk/host-sdk-file.js';
import type { Logger } from '@cp/http-runtime';

/**
 * Builds the app from ready dependencies and listens. Closing drains, then writes the usage
 * events and served counts still in memory, then stops the change feed. With `redisUrl` the
 * event budgets of POST /v1/events count in Redis (not awaited: while it is down each instance
 * counts in its memory).
 */
export async function serveDelivery(options: {
  config: AppConfig;
  host?: string | undefined;
  repos: Repositories;
  objects: ObjectStore;
  changes: ChangeFeed;
  usage: UsageWriter;
  redisUrl?: string | null;
  log: Logger;
  /** SHUTDOWN_GRACE_SECONDS (default 10). */
  graceSeconds?: number;
  checks?: Record<string, ReadinessCheck>;
  /** Default: the file `pnpm --filter @component-platform/host build` wrote. */
  hostSdk?: HostSdkFile;
  /** Default: the frame document the same build wrote. */
  hostFrame?: HostSdkFile;
}): Promise<RunningService<Metrics>> {
  const { config, log } = options;
  // Built in serveHttp's callback (it takes `draining`), which runs before serveHttp resolves.
  let app!: DeliveryApp;
  const redis = options.redisUrl ? createRedisClient(options.redisUrl) : null;
  redis?.on('error', (error) => log.warn({ err: error }, 'redis unavailable; usage event budgets use per-instance memory counters'));
  const hostSdk = options.hostSdk ?? readHostSdkFile();
  const hostFrame = options.hostFrame ?? readHostFrameFile();
  const server = await serveHttp({
    listener: (draining) => {
      app = createApp({ ...options, hostSdk, hostFrame, draining, redis });
      return app.listener;
    },
    port: config.port,
    host: options.host,
    graceSeconds: options.graceSeconds,
    log,
    // Reads are short; keep-alive outlives a load balancer's 60 s idle timeout.
    requestTimeoutMs: 30_000,
    keepAliveTimeoutMs: 65_000,
  });
  log.info({ port: server.port, publicUrl: config.publicUrl }, 'delivery API listening');
  void options.changes.listening.then(() => log.info('following change notifications'));
  return {
    name: 'Delivery API',
    url: config.publicUrl,
    port: server.port,
    metrics: app.metrics,
    async close() {
      // Streams never finish by themselves: once draining has begun (new streams are
      // refused from then on), end them so they do not hold the drain for the whole
      // grace period; EventSource reconnects, to another instance.
      const drained = server.close();
      app.endStreams();
      await drained;
      app.close();
      // After the drain, so the last accepted batches are in the buffer; before the pool closes.
      await app.usage.close();
      await options.changes.close();
      await redis?.quit().catch(() => undefined);
    },
  };
}
