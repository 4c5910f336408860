import type { IncomingMessage, ServerResponse } from 'node:http';
import { expressMetrics, type Metrics } from './metrics.js';

/** What `expressDefaults` needs of an Express app (this package does not depend on Express). */
export interface ExpressSettings {
  disable(setting: string): unknown;
  set(setting: string, value: unknown): unknown;
  use(middleware: (req: IncomingMessage, res: ServerResponse, next: () => void) => void): unknown;
}

/**
 * The settings every Express service starts with: no X-Powered-By, the proxies its
 * settings trust (client addresses come from X-Forwarded-For only behind them), no
 * automatic ETag, and request metrics by route (`unmatchedRoute` names what no
 * Express route handled).
 */
export function expressDefaults(
  app: ExpressSettings,
  options: { trustProxy: boolean | number | string; metrics: Metrics; unmatchedRoute?: (req: IncomingMessage) => string },
): void {
  app.disable('x-powered-by');
  app.set('trust proxy', options.trustProxy);
  app.set('etag', false);
  app.use(expressMetrics(options.metrics, options.unmatchedRoute));
}
