import { envLoader, redisEnvShape, type StorageSettings, storageEnvShape, storageProblems, storageSettings } from '@cp/http-runtime';
import { z } from 'zod';
import {
  type AppConfig,
  defaultRateLimits,
  deriveAllowedHosts,
  deriveAllowedOrigins,
} from './config.js';

/*
 * The process environment, parsed once at start. A bad value stops the process
 * with a message that names the variable (see `loadEnv`). Nothing else reads
 * process.env.
 */

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const csv = z
  .string()
  .transform((value) => value.split(',').map((item) => item.trim()).filter((item) => item.length > 0));
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const EnvSchema = z.object({
  MCP_PORT: z.coerce.number().int().min(0).max(65535).default(4100),
  MCP_HOST: z.string().min(1).optional(),
  MCP_PUBLIC_URL: httpUrl.default('http://localhost:4100/mcp'),
  MCP_ALLOWED_HOSTS: csv.optional(),
  MCP_ALLOWED_ORIGINS: csv.optional(),
  MCP_MAX_BODY_BYTES: positiveInt(1024 * 1024),
  MCP_CONTENT_CACHE_BYTES: z.coerce.number().int().min(0).default(64 * 1024 * 1024),
  MCP_TRUST_PROXY: z
    .string()
    .optional()
    .transform((value) => (value === undefined || value === '' || value === 'false' ? false : /^\d+$/.test(value) ? Number(value) : value === 'true' ? true : value)),
  DASHBOARD_URL: httpUrl.default('http://localhost:4300'),
  DELIVERY_API_URL: httpUrl.default('http://localhost:4200'),
  AUTH_ISSUER: httpUrl.default('http://localhost:4000'),
  AUTH_JWKS_URL: httpUrl.optional(),
  AUTH_GRANT_CACHE_SECONDS: z.coerce.number().int().min(0).max(30, 'must be at most 30 (revocation must apply within 30 s)').default(30),
  ...redisEnvShape,
  RATE_LIMIT_USER_POINTS: positiveInt(defaultRateLimits.userPoints),
  RATE_LIMIT_IP_POINTS: positiveInt(defaultRateLimits.ipPoints),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt(defaultRateLimits.windowSeconds),
  RATE_LIMIT_UPLOAD_POINTS: positiveInt(defaultRateLimits.uploadPoints),
  RATE_LIMIT_UPLOAD_WINDOW_SECONDS: positiveInt(defaultRateLimits.uploadWindowSeconds),
  MAX_UPLOAD_BYTES: positiveInt(5 * 1024 * 1024),
  LOG_LEVEL: z.enum(logLevels).default('info'),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  ...storageEnvShape,
});

export type RawEnv = z.infer<typeof EnvSchema>;

export interface Env extends StorageSettings {
  readonly app: AppConfig;
  readonly host: string | undefined;
  readonly logLevel: (typeof logLevels)[number];
  readonly shutdownGraceSeconds: number;
  readonly redisUrl: string | null;
  readonly maxUploadBytes: number;
}

export class EnvError extends Error {
  override readonly name = 'EnvError';
}

/** Parses the given environment; throws EnvError naming every bad variable. */
export function parseEnv(source: Readonly<Record<string, string | undefined>>): Env {
  // Empty strings mean "unset", as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new EnvError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  if (new URL(env.MCP_PUBLIC_URL).search !== '' || new URL(env.MCP_PUBLIC_URL).hash !== '') {
    throw new EnvError('Invalid configuration:\n  MCP_PUBLIC_URL: must not carry a query or a fragment');
  }
  const storage = storageProblems(env, { production: cleaned.NODE_ENV === 'production' });
  if (storage.length > 0) {
    throw new EnvError(`Invalid configuration:\n${storage.map((line) => `  ${line}`).join('\n')}`);
  }
  return {
    app: {
      port: env.MCP_PORT,
      publicUrl: env.MCP_PUBLIC_URL,
      allowedHosts: (env.MCP_ALLOWED_HOSTS ?? deriveAllowedHosts(env.MCP_PUBLIC_URL, env.MCP_PORT)).map((h) => h.toLowerCase()),
      allowedOrigins: env.MCP_ALLOWED_ORIGINS ?? deriveAllowedOrigins(env.MCP_PUBLIC_URL, env.MCP_PORT),
      dashboardUrl: env.DASHBOARD_URL.replace(/\/$/, ''),
      deliveryUrl: env.DELIVERY_API_URL.replace(/\/$/, ''),
      auth: {
        issuer: env.AUTH_ISSUER,
        jwksUrl: env.AUTH_JWKS_URL ?? null,
        grantCacheSeconds: env.AUTH_GRANT_CACHE_SECONDS,
        jwksCooldownMs: 30_000,
      },
      rateLimit: {
        userPoints: env.RATE_LIMIT_USER_POINTS,
        ipPoints: env.RATE_LIMIT_IP_POINTS,
        windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS,
        uploadPoints: env.RATE_LIMIT_UPLOAD_POINTS,
        uploadWindowSeconds: env.RATE_LIMIT_UPLOAD_WINDOW_SECONDS,
      },
      maxBodyBytes: env.MCP_MAX_BODY_BYTES,
      contentCacheBytes: env.MCP_CONTENT_CACHE_BYTES,
      trustProxy: env.MCP_TRUST_PROXY,
    },
    host: env.MCP_HOST,
    logLevel: env.LOG_LEVEL,
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS,
    redisUrl: env.REDIS_URL ?? null,
    maxUploadBytes: env.MAX_UPLOAD_BYTES,
    ...storageSettings(env),
  };
}

/** process.env, parsed once; on a bad value prints the message and exits (status 78, EX_CONFIG). */
export const loadEnv = envLoader(parseEnv);
