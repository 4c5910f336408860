import { createLogger as createServiceLogger, type Logger, type LoggerOptions } from '@cp/http-runtime';

export { silentLogger, type Logger } from '@cp/http-runtime';

/**
 * packages/http-runtime's logger (one redaction list, scrubbed errors), named for this service.
 * Cached hits are not logged (that is the proxy's or CDN's access log): a log line per hit
 * would cost more than serving it. Misses, invalidations and failures are.
 */
export const createLogger = (options: Omit<LoggerOptions, 'service'>): Logger => createServiceLogger({ ...options, service: 'delivery-api' });
