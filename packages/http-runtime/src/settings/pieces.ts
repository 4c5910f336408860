import { z } from 'zod';

/*
 * The zod pieces every service's settings are made of, so that one kind of value
 * is read, defaulted and refused the same way (same message) in every service.
 * Each app composes them into its own shape (`defineSettings`); empty values are
 * dropped before parsing (they count as unset), so `.optional()` also covers `NAME=`.
 */

export const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
/** A TCP port to listen on; 0 picks a free one. */
export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
/** The interface to listen on; unset: all of them. */
export const host = z.string().min(1).optional();
export const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
export const intAtLeast = (min: number, fallback: number) => z.coerce.number().int().min(min).default(fallback);
export const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .optional()
    .transform((value) => (value === undefined ? fallback : value === 'true' || value === '1'));
/** A comma-separated list; blanks around and between items are dropped. */
export const csv = z.string().transform((value) =>
  value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item.length > 0),
);

/** Signing keys (cookies, sessions): a comma-separated list, the first signs, each long enough not to be guessed. */
export const keyList = csv.refine((keys) => keys.length > 0 && keys.every((key) => key.length >= 32), {
  error: 'must be a comma-separated list of keys of at least 32 characters',
});
/** An OAuth client id: short and URL-safe. */
export const clientId = z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1-64 letters, digits, ".", "_" or "-"');
/** A shared secret, long enough not to be guessed. */
export const secret = z.string().min(32, 'must be at least 32 characters');

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What every service reads besides its own settings. */
export const serviceEnvShape = {
  /** `production`: no development fallback (embedded stores, generated keys), https public URLs. */
  NODE_ENV: z.string().optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /** After SIGTERM, how long in-flight requests may run. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
};

export interface ServiceSettings {
  readonly logLevel: LogLevel;
  /** After SIGTERM, how long in-flight requests may run (SHUTDOWN_GRACE_SECONDS). */
  readonly shutdownGraceSeconds: number;
}

/** What parsing a shape gives. */
export type Parsed<Shape extends z.ZodRawShape> = z.output<z.ZodObject<Shape>>;

export const isProduction = (env: Parsed<typeof serviceEnvShape>): boolean => env.NODE_ENV === 'production';

export function serviceSettings(env: Parsed<typeof serviceEnvShape>): ServiceSettings {
  return { logLevel: env.LOG_LEVEL, shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS };
}
