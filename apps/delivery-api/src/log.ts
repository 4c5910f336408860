import { pino, type Logger } from 'pino';

export type { Logger };

const errorSerializer = (error: unknown): Record<string, unknown> => {
  if (!(error instanceof Error)) return { message: String(error) };
  return {
    type: error.name,
    message: error.message,
    stack: error.stack,
    ...('code' in error && typeof error.code === 'string' ? { code: error.code } : {}),
  };
};

/**
 * JSON logs. Cached hits are not logged (that is the proxy's or CDN's access log):
 * a log line per hit would cost more than serving it. Misses, invalidations and
 * failures are.
 */
export function createLogger(options: { level: string; destination?: pino.DestinationStream }): Logger {
  return pino(
    {
      name: 'delivery-api',
      level: options.level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: errorSerializer, error: errorSerializer },
    },
    options.destination,
  );
}

/** A logger that drops everything (tests that do not look at logs). */
export const silentLogger = (): Logger => pino({ level: 'silent' });
