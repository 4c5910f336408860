import { type DatabaseSettings, databaseEnvShape, databaseSettings, envLoader, objectStoreEnvShape } from '@cp/http-runtime';
import { z } from 'zod';
import { COMPONENT_PAGE_SIZES, type DashboardConfig, DEVELOPMENT_SESSION_KEY } from './config.js';

/*
 * The process environment, parsed once at start. A bad value stops the process
 * with a message that names the variable. Nothing else reads process.env.
 * Development defaults match the auth server's (DASHBOARD_CLIENT_ID/SECRET), so
 * `pnpm start` needs no setting.
 */
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const EnvSchema = z.object({
  NODE_ENV: z.string().optional(),
  DASHBOARD_PORT: z.coerce.number().int().min(0).max(65535).default(4300),
  DASHBOARD_HOST: z.string().min(1).optional(),
  DASHBOARD_URL: httpUrl.default('http://localhost:4300'),
  DASHBOARD_CLIENT_ID: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1-64 letters, digits, ".", "_" or "-"').default('dashboard'),
  DASHBOARD_CLIENT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  DASHBOARD_SESSION_KEYS: z.string().optional(),
  DASHBOARD_SESSION_HOURS: z.coerce.number().int().min(1).max(24 * 30).default(12),
  DASHBOARD_TRUST_PROXY: z.string().optional(),
  AUTH_ISSUER: httpUrl.default('http://localhost:4000'),
  MCP_PUBLIC_URL: httpUrl.default('http://localhost:4100/mcp'),
  DELIVERY_PUBLIC_URL: httpUrl.default('http://localhost:4200'),
  LOG_LEVEL: z.enum(logLevels).default('info'),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  // No S3_PUBLIC_ENDPOINT: the dashboard reads objects itself and presigns no URL.
  ...databaseEnvShape,
  ...objectStoreEnvShape,
});

export interface Env extends DatabaseSettings {
  readonly app: DashboardConfig;
  readonly port: number;
  readonly host: string | undefined;
  readonly logLevel: (typeof logLevels)[number];
  readonly shutdownGraceSeconds: number;
  /** null: the embedded S3 server, on `s3Bucket`. */
  readonly s3: { endpoint: string; accessKey: string; secretKey: string; bucket: string; region: string } | null;
  readonly s3Bucket: string;
}

export class EnvError extends Error {
  override readonly name = 'EnvError';
  constructor(problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

export function parseEnv(source: Readonly<Record<string, string | undefined>>): Env {
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) throw new EnvError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  const env = parsed.data;
  const production = env.NODE_ENV === 'production';
  const problems: string[] = [];

  const url = new URL(env.DASHBOARD_URL);
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') problems.push('DASHBOARD_URL: must be an origin without a path, e.g. https://dashboard.example.com');
  if (production) {
    for (const [name, value] of [['DASHBOARD_URL', url], ['AUTH_ISSUER', new URL(env.AUTH_ISSUER)]] as const) {
      if (value.protocol !== 'https:' && !LOOPBACK.has(value.hostname)) problems.push(`${name}: must be an https URL in production (loopback addresses excepted)`);
    }
    if (env.DASHBOARD_CLIENT_SECRET === undefined) problems.push('DASHBOARD_CLIENT_SECRET: required in production (the same value as the auth server\'s)');
    if (env.DASHBOARD_SESSION_KEYS === undefined) problems.push('DASHBOARD_SESSION_KEYS: required in production (comma-separated, >= 32 characters, the first signs)');
    if (env.DATABASE_URL === undefined) problems.push('DATABASE_URL: required in production');
  }
  const sessionKeys = (env.DASHBOARD_SESSION_KEYS ?? DEVELOPMENT_SESSION_KEY).split(',').map((key) => key.trim()).filter((key) => key.length > 0);
  if (sessionKeys.length === 0 || sessionKeys.some((key) => key.length < 32)) problems.push('DASHBOARD_SESSION_KEYS: must be a comma-separated list of keys of at least 32 characters');
  const s3Given = [env.S3_ENDPOINT, env.S3_ACCESS_KEY, env.S3_SECRET_KEY].filter((value) => value !== undefined).length;
  if (s3Given > 0 && s3Given < 3) problems.push('S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY: set all three, or none (the embedded S3 server)');
  if (problems.length > 0) throw new EnvError(problems);

  const trust = env.DASHBOARD_TRUST_PROXY;
  return {
    app: {
      publicUrl: url.origin,
      issuer: new URL(env.AUTH_ISSUER).origin,
      clientId: env.DASHBOARD_CLIENT_ID,
      clientSecret: env.DASHBOARD_CLIENT_SECRET ?? 'development-dashboard-secret-not-for-production-use',
      sessionKeys,
      secureCookies: production,
      sessionSeconds: env.DASHBOARD_SESSION_HOURS * 3600,
      mcpUrl: env.MCP_PUBLIC_URL,
      deliveryUrl: env.DELIVERY_PUBLIC_URL.replace(/\/$/, ''),
      trustProxy: trust === undefined || trust === 'false' ? false : trust === 'true' ? true : /^\d+$/.test(trust) ? Number(trust) : trust,
      componentPageSizes: COMPONENT_PAGE_SIZES,
    },
    port: env.DASHBOARD_PORT,
    host: env.DASHBOARD_HOST,
    logLevel: env.LOG_LEVEL,
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS,
    ...databaseSettings(env),
    s3:
      env.S3_ENDPOINT && env.S3_ACCESS_KEY && env.S3_SECRET_KEY
        ? { endpoint: env.S3_ENDPOINT, accessKey: env.S3_ACCESS_KEY, secretKey: env.S3_SECRET_KEY, bucket: env.S3_BUCKET, region: env.S3_REGION }
        : null,
    s3Bucket: env.S3_BUCKET,
  };
}

/** process.env, parsed once; on a bad value prints the message and exits (status 78, EX_CONFIG). */
export const loadEnv = envLoader(parseEnv);
