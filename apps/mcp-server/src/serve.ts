import { sweepExpiredUploads, type DomainDeps, type GrantLookup, type RolloutFigures, type UsageReader } from '@cp/domain';
import { type ReadinessCheck, type RunningService, serveHttp } from '@cp/http-runtime';
import { createRedisClient } from '@cp/http-runtime/rate-limit';
import { createApp } from './app.js';
import type { AppConfig } from './config.js';
import type { Logger } from '@cp/http-runtime';
import { createMcpMetrics, type McpMetrics } from './metrics.js';
import { createRateLimits } from './rate-limit/limiter.js';

/**
 * Builds the app from ready dependencies and listens. Redis (for shared rate-limit
 * counters) is connected here when `redisUrl` is set; its failures are logged and
 * the limiter falls back to memory counters (SECURITY.md "Rate limits").
 */
export async function serveMcp(options: {
  config: AppConfig;
  host?: string | undefined;
  domain: DomainDeps;
  usage: UsageReader;
  figures: RolloutFigures;
  grants: GrantLookup;
  redisUrl: string | null;
  log: Logger;
  /** How often expired upload sessions are swept (their staged objects removed). */
  sweepIntervalSeconds?: number;
  /** SHUTDOWN_GRACE_SECONDS (default 10). */
  graceSeconds?: number;
  checks?: Record<string, ReadinessCheck>;
}): Promise<RunningService<McpMetrics>> {
  const { config, log } = options;
  // Not awaited: the MCP server starts, and keeps serving, without Redis (its limits fail open to memory).
  const redis = options.redisUrl === null ? null : createRedisClient(options.redisUrl);
  redis?.on('error', (error) => log.warn({ err: error }, 'redis unavailable; rate limits use per-instance memory counters'));
  const metrics = createMcpMetrics();
  const server = await serveHttp({
    listener: (draining) =>
      createApp({
        config,
        domain: options.domain,
        usage: options.usage,
        figures: options.figures,
        grants: options.grants,
        rateLimits: createRateLimits(config.rateLimit, { redis }),
        log,
        metrics,
        ...(options.checks ? { checks: options.checks } : {}),
        draining,
      }),
    port: config.port,
    host: options.host,
    graceSeconds: options.graceSeconds,
    log,
  });
  const sweeper = startUploadSweeper(options.domain, log, options.sweepIntervalSeconds ?? 300);
  log.info({ port: server.port, publicUrl: config.publicUrl, issuer: config.auth.issuer }, 'MCP server listening');
  return {
    name: 'MCP server',
    url: config.publicUrl,
    port: server.port,
    metrics,
    /** Graceful: drain (grace period), then Redis. */
    async close() {
      clearInterval(sweeper);
      await server.close();
      await redis?.quit().catch(() => undefined);
    },
  };
}

/**
 * Expires overdue upload sessions and removes the staging objects of every session
 * whose URL has expired, whatever its state. Every instance runs it; the repository
 * lets exactly one of them record each session.
 */
function startUploadSweeper(domain: DomainDeps, log: Logger, intervalSeconds: number): NodeJS.Timeout {
  const timer = setInterval(() => {
    sweepExpiredUploads({}, domain).then(
      (result) => {
        if (result.expired > 0 || result.stagingRemoved > 0) log.info(result, 'expired upload sessions swept');
        if (result.objectsNotRemoved > 0) log.warn(result, 'some staging objects could not be removed; retrying at the next interval');
      },
      (error: unknown) => log.warn({ err: error }, 'upload sweep failed; retrying at the next interval'),
    );
  }, intervalSeconds * 1000);
  timer.unref();
  return timer;
}
