import { createServer } from 'node:http';
import { createMetrics, drainable, listen, type Metrics } from '@cp/http-runtime';
import { createApp, type AppDeps } from './app.js';

/** A service listening on a port, as main.ts and the embedded stack see it. */
export interface RunningService {
  readonly name: string;
  readonly url: string;
  readonly port: number;
  readonly metrics: Metrics;
  /** Graceful: stop accepting, let in-flight requests finish for at most the grace period. */
  close(): Promise<void>;
}

export async function serveDashboard(
  options: AppDeps & { port: number; host?: string | undefined; /** SHUTDOWN_GRACE_SECONDS (default 10). */ graceSeconds?: number },
): Promise<RunningService> {
  const metrics = options.metrics ?? createMetrics({ service: 'dashboard' });
  let draining = () => false;
  const server = createServer(createApp({ ...options, metrics, draining: () => draining() }));
  server.headersTimeout = 15_000;
  server.requestTimeout = 60_000;
  const drain = drainable(server, (options.graceSeconds ?? 10) * 1000);
  draining = () => drain.draining;
  const port = await listen(server, options.port, options.host);
  options.log.info({ port, url: options.config.publicUrl, issuer: options.config.issuer }, 'dashboard listening');
  return {
    name: 'Dashboard',
    url: options.config.publicUrl,
    port,
    metrics,
    async close() {
      const { forced } = await drain.drain();
      if (forced) options.log.warn('grace period over: open connections were closed');
    },
  };
}
