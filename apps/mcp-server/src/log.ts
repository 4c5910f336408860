import { pino, type Logger } from 'pino';

export type { Logger };

/*
 * Tokens and presigned-URL signatures must never reach a log. Headers are never
 * logged whole (the request logger picks fields), `authorization` is redacted in
 * case a caller logs one anyway, and every logged error message is scrubbed.
 */
const SIGNATURE = /([?&](?:X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|Signature|access_token)=)[^&\s'"]+/gi;
const BEARER = /(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi;
const JWT_LIKE = /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;

export const scrub = (text: string): string =>
  text.replace(SIGNATURE, '$1[redacted]').replace(BEARER, '$1[redacted]').replace(JWT_LIKE, '[redacted-jwt]');

const errorSerializer = (error: unknown): Record<string, unknown> => {
  if (!(error instanceof Error)) return { message: scrub(String(error)) };
  return {
    type: error.name,
    message: scrub(error.message),
    stack: error.stack === undefined ? undefined : scrub(error.stack),
    ...('code' in error && typeof error.code === 'string' ? { code: error.code } : {}),
  };
};

export function createLogger(options: { level: string; name?: string; destination?: pino.DestinationStream }): Logger {
  return pino(
    {
      name: options.name ?? 'mcp-server',
      level: options.level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: ['req.headers.authorization', 'headers.authorization', '*.authorization', 'token'], censor: '[redacted]' },
      serializers: { err: errorSerializer, error: errorSerializer },
    },
    options.destination,
  );
}

/** A logger that drops everything (tests that do not look at logs). */
export const silentLogger = (): Logger => pino({ level: 'silent' });
