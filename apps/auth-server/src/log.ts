import { createLogger as createServiceLogger, type Logger, type LoggerOptions } from '@cp/http-runtime';

export { silentLogger, type Logger } from '@cp/http-runtime';

/** packages/http-runtime's logger (one redaction list, scrubbed errors), named for this service. */
export const createLogger = (options: Omit<LoggerOptions, 'service'>): Logger => createServiceLogger({ ...options, service: 'auth-server' });
