import { createMetrics, type Metrics, type RunningService, serveHttp } from '@cp/http-runtime';
import { createApp, type AppDeps } from './app.js';

/** Builds the app from ready dependencies and listens (packages/http-runtime's timeouts and drain). */
export async function serveDashboard(
  options: AppDeps & { port: number; host?: string | undefined; /** SHUTDOWN_GRACE_SECONDS (default 10). */ graceSeconds?: number },
): Promise<RunningService<Metrics>> {
  const metrics = options.metrics ?? createMetrics({ service: 'dashboard' });
  const server = await serveHttp({
    listener: (draining) => createApp({ ...options, metrics, draining }),
    port: options.port,
    host: options.host,
    graceSeconds: options.graceSeconds,
    log: options.log,
  });
  options.log.info({ port: server.port, url: options.config.publicUrl, issuer: options.config.issuer }, 'dashboard listening');
  return { name: 'Dashboard', url: options.config.publicUrl, port: server.port, metrics, close: () => server.close() };
}
