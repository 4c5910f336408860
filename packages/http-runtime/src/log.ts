import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

/*
 * Every service's logger: JSON lines, one redaction list and one error serializer.
 * Secrets must never reach a log: request fields are picked by hand (never whole
 * headers or bodies), these paths are redacted in case a caller logs one anyway,
 * and every logged error message and stack is scrubbed of bearer tokens, JWTs and
 * presigned-URL signatures (errors quote URLs and headers more often than callers do).
 */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'headers.cookie',
  '*.authorization',
  'token',
  '*.password',
  '*.code_verifier',
  '*.client_secret',
  '*.access_token',
  '*.refresh_token',
  '*.id_token',
];

const CENSOR = '[redacted]';

/**
 * `*.code` too (an OAuth authorization code), but not an error's code (ECONNRESET, a
 * domain error's code): `redact` cannot tell them apart, this runs before the error
 * serializer, while errors are still Errors.
 */
function redactCodes(object: Record<string, unknown>): Record<string, unknown> {
  const holders = Object.entries(object).filter(
    ([, value]) => typeof value === 'object' && value !== null && !(value instanceof Error) && Object.hasOwn(value, 'code'),
  );
  if (holders.length === 0) return object;
  return { ...object, ...Object.fromEntries(holders.map(([key, value]) => [key, { ...(value as object), code: CENSOR }])) };
}

const SIGNATURE = /([?&](?:X-Amz-Signature|X-Amz-Credential|X-Amz-Security-Token|Signature|access_token)=)[^&\s'"]+/gi;
const BEARER = /(Bearer\s+)[A-Za-z0-9._~+/=-]+/gi;
const JWT_LIKE = /eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g;

const scrub = (text: string): string =>
  text.replace(SIGNATURE, '$1[redacted]').replace(BEARER, '$1[redacted]').replace(JWT_LIKE, '[redacted-jwt]');

const serializeError = (error: unknown): Record<string, unknown> => {
  if (!(error instanceof Error)) return { message: scrub(String(error)) };
  return {
    type: error.name,
    message: scrub(error.message),
    stack: error.stack === undefined ? undefined : scrub(error.stack),
    ...('code' in error && typeof error.code === 'string' ? { code: error.code } : {}),
  };
};

export interface LoggerOptions {
  /** The service's name, on every line (`name`). */
  readonly service: string;
  readonly level: string;
  /** Default: stdout. */
  readonly destination?: DestinationStream;
}

export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      name: options.service,
      level: options.level,
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT, censor: CENSOR },
      formatters: { log: redactCodes },
      serializers: { err: serializeError, error: serializeError },
    },
    options.destination,
  );
}

/** A logger that drops everything (tests that do not look at logs). */
export const silentLogger = (): Logger => pino({ level: 'silent' });
