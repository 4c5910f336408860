import { envLoader, type StorageSettings, storageEnvShape, storageProblems, storageSettings } from '@cp/http-runtime';
import { z } from 'zod';
import { type AppConfig, DEFAULT_FLOW_SUNSET, defaultCachePolicy } from './config.js';

/*
 * The process environment, parsed once at start. A bad value stops the process
 * with a message that names the variable (see `loadEnv`). Nothing else reads
 * process.env.
 */

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const int = (min: number, fallback: number) => z.coerce.number().int().min(min).default(fallback);
const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const EnvSchema = z.object({
  DELIVERY_PORT: z.coerce.number().int().min(0).max(65535).default(4200),
  DELIVERY_HOST: z.string().min(1).optional(),
  DELIVERY_PUBLIC_URL: httpUrl.default('http://localhost:4200'),
  DELIVERY_CACHE_MAX_BYTES: int(0, defaultCachePolicy.maxBytes),
  DELIVERY_CACHE_TTL_SECONDS: int(1, defaultCachePolicy.ttlSeconds),
  DELIVERY_STALE_IF_ERROR_SECONDS: int(0, defaultCachePolicy.staleIfErrorSeconds),
  DELIVERY_MAX_AGE_SECONDS: int(0, defaultCachePolicy.maxAgeSeconds),
  DELIVERY_STALE_WHILE_REVALIDATE_SECONDS: int(0, defaultCachePolicy.staleWhileRevalidateSeconds),
  DELIVERY_COMPRESSION_MIN_BYTES: int(0, defaultCachePolicy.compressionMinBytes),
  DELIVERY_FLOW_ENVIRONMENT: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be an environment name such as prod')
    .default('prod'),
  DELIVERY_FLOW_SUNSET: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 date-time such as 2027-06-30T00:00:00Z' })
    .default(DEFAULT_FLOW_SUNSET.toISOString()),
  DELIVERY_LOAD_TIMEOUT_MS: int(1, 5000),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  LOG_LEVEL: z.enum(logLevels).default('info'),
  ...storageEnvShape,
});

export interface Env extends StorageSettings {
  readonly app: AppConfig;
  readonly host: string | undefined;
  readonly logLevel: (typeof logLevels)[number];
  readonly shutdownGraceSeconds: number;
}

export class EnvError extends Error {
  override readonly name = 'EnvError';
}

const invalid = (lines: string[]) => new EnvError(`Invalid configuration:\n${lines.map((line) => `  ${line}`).join('\n')}`);

/** Parses the given environment; throws EnvError naming every bad variable. */
export function parseEnv(source: Readonly<Record<string, string | undefined>>): Env {
  // Empty strings mean "unset", as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) throw invalid(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  const env = parsed.data;
  const publicUrl = new URL(env.DELIVERY_PUBLIC_URL);
  if (publicUrl.search !== '' || publicUrl.hash !== '') {
    throw invalid(['DELIVERY_PUBLIC_URL: must not carry a query or a fragment']);
  }
  const storage = storageProblems(env, { production: cleaned.NODE_ENV === 'production' });
  if (storage.length > 0) throw invalid(storage);
  return {
    app: {
      port: env.DELIVERY_PORT,
      publicUrl: env.DELIVERY_PUBLIC_URL.replace(/\/$/, ''),
      cache: {
        maxBytes: env.DELIVERY_CACHE_MAX_BYTES,
        ttlSeconds: env.DELIVERY_CACHE_TTL_SECONDS,
        staleIfErrorSeconds: env.DELIVERY_STALE_IF_ERROR_SECONDS,
        maxAgeSeconds: env.DELIVERY_MAX_AGE_SECONDS,
        staleWhileRevalidateSeconds: env.DELIVERY_STALE_WHILE_REVALIDATE_SECONDS,
        compressionMinBytes: env.DELIVERY_COMPRESSION_MIN_BYTES,
      },
      flowEnvironment: env.DELIVERY_FLOW_ENVIRONMENT,
      flowSunset: new Date(env.DELIVERY_FLOW_SUNSET),
      loadTimeoutMs: env.DELIVERY_LOAD_TIMEOUT_MS,
      retryAfterSeconds: 5,
    },
    host: env.DELIVERY_HOST,
    logLevel: env.LOG_LEVEL,
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS,
    ...storageSettings(env),
  };
}

/** process.env, parsed once; on a bad value prints the message and exits (status 78, EX_CONFIG). */
export const loadEnv = envLoader(parseEnv);
