import { type DatabaseSettings, databaseEnvShape, databaseSettings, envLoader, redisEnvShape } from '@cp/http-runtime';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { type AuthConfig, type DashboardClient, defaultLifetimes, defaultThrottle } from './config.js';
import { parseSigningKeys, SigningKeyError, type SigningKey } from './keys/signing-keys.js';

/*
 * The process environment, parsed once at start. A bad value stops the process
 * with a message that names the variable (see `loadEnv`). Nothing else reads
 * process.env.
 */

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);
const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'], { error: 'must be true or false' })
    .optional()
    .transform((value) => (value === undefined ? fallback : value === 'true' || value === '1'));
const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const EnvSchema = z.object({
  NODE_ENV: z.string().optional(),
  AUTH_PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  AUTH_HOST: z.string().min(1).optional(),
  AUTH_ISSUER: httpUrl.default('http://localhost:4000'),
  MCP_PUBLIC_URL: httpUrl.default('http://localhost:4100/mcp'),
  AUTH_SIGNING_KEYS: z.string().optional(),
  AUTH_SIGNING_KEYS_FILE: z.string().min(1).optional(),
  AUTH_COOKIE_KEYS: z.string().optional(),
  AUTH_SECRETS_FILE: z.string().min(1).default('.data/auth/secrets.json'),
  AUTH_SIGNUP_ENABLED: flag(true),
  AUTH_TRUST_PROXY: z
    .string()
    .optional()
    .transform((value) =>
      value === undefined || value === 'false' ? false : value === 'true' ? true : /^\d+$/.test(value) ? Number(value) : value,
    ),
  AUTH_LOGIN_ACCOUNT_ATTEMPTS: positiveInt(defaultThrottle.loginPerAccount.attempts),
  AUTH_LOGIN_IP_ATTEMPTS: positiveInt(defaultThrottle.loginPerIp.attempts),
  AUTH_SIGNUP_IP_ATTEMPTS: positiveInt(defaultThrottle.signupPerIp.attempts),
  AUTH_REGISTRATION_IP_ATTEMPTS: positiveInt(defaultThrottle.registrationPerIp.attempts),
  AUTH_PURGE_INTERVAL_SECONDS: positiveInt(600),
  ...redisEnvShape,
  DASHBOARD_CLIENT_ID: z.string().regex(/^[A-Za-z0-9._-]{1,64}$/, 'must be 1-64 letters, digits, ".", "_" or "-"').optional(),
  DASHBOARD_CLIENT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  DASHBOARD_URL: httpUrl.optional(),
  LOG_LEVEL: z.enum(logLevels).default('info'),
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  ...databaseEnvShape,
});

export interface Env extends DatabaseSettings {
  /** Everything but the keys; the keys are filled in by main.ts (see `secrets`). */
  readonly config: Omit<AuthConfig, 'cookieKeys'>;
  readonly production: boolean;
  readonly port: number;
  readonly host: string | undefined;
  readonly logLevel: (typeof logLevels)[number];
  /** After SIGTERM, how long in-flight requests may run (SHUTDOWN_GRACE_SECONDS). */
  readonly shutdownGraceSeconds: number;
  /** null: development, generate and keep them in `localSecretsFile`. */
  readonly signingKeys: SigningKey[] | null;
  readonly cookieKeys: string[] | null;
  readonly localSecretsFile: string;
  readonly purgeIntervalSeconds: number;
  /** Shared throttle counters (REDIS_URL); null: this process's memory. */
  readonly redisUrl: string | null;
}

export class EnvError extends Error {
  override readonly name = 'EnvError';
  constructor(problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);
const isLoopback = (url: URL): boolean => LOOPBACK.has(url.hostname);

/** Parses the given environment; throws EnvError naming every bad variable. */
export function parseEnv(source: Readonly<Record<string, string | undefined>>): Env {
  // Empty strings mean "unset", as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new EnvError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const env = parsed.data;
  const production = env.NODE_ENV === 'production';
  const problems: string[] = [];

  const issuer = new URL(env.AUTH_ISSUER);
  if (issuer.search !== '' || issuer.hash !== '') problems.push('AUTH_ISSUER: must not carry a query or a fragment');
  if (issuer.pathname !== '/') problems.push('AUTH_ISSUER: must be an origin without a path, e.g. https://auth.example.com');
  const resource = new URL(env.MCP_PUBLIC_URL);
  if (resource.search !== '' || resource.hash !== '') problems.push('MCP_PUBLIC_URL: must not carry a query or a fragment');
  if (production) {
    for (const [name, url] of [['AUTH_ISSUER', issuer], ['MCP_PUBLIC_URL', resource]] as const) {
      if (url.protocol !== 'https:' && !isLoopback(url)) problems.push(`${name}: must be an https URL in production (loopback addresses excepted)`);
    }
  }

  if (env.AUTH_SIGNING_KEYS !== undefined && env.AUTH_SIGNING_KEYS_FILE !== undefined) {
    problems.push('AUTH_SIGNING_KEYS, AUTH_SIGNING_KEYS_FILE: set one, not both');
  }
  let signingKeys: SigningKey[] | null = null;
  const keysSource = env.AUTH_SIGNING_KEYS_FILE ?? env.AUTH_SIGNING_KEYS;
  if (keysSource !== undefined) {
    const name = env.AUTH_SIGNING_KEYS_FILE !== undefined ? 'AUTH_SIGNING_KEYS_FILE' : 'AUTH_SIGNING_KEYS';
    try {
      signingKeys = parseSigningKeys(name === 'AUTH_SIGNING_KEYS_FILE' ? readFileSync(keysSource, 'utf8') : keysSource);
    } catch (error) {
      if (error instanceof SigningKeyError) problems.push(`${name}: ${error.message}`);
      else problems.push(`${name}: cannot read ${keysSource} (${(error as Error).message})`);
    }
  } else if (production) {
    problems.push('AUTH_SIGNING_KEYS: required in production (or AUTH_SIGNING_KEYS_FILE); see README "Signing keys"');
  }

  let cookieKeys: string[] | null = null;
  if (env.AUTH_COOKIE_KEYS !== undefined) {
    cookieKeys = env.AUTH_COOKIE_KEYS.split(',').map((key) => key.trim()).filter((key) => key.length > 0);
    if (cookieKeys.length === 0 || cookieKeys.some((key) => key.length < 32)) {
      problems.push('AUTH_COOKIE_KEYS: must be a comma-separated list of keys of at least 32 characters');
    }
  } else if (production) {
    problems.push('AUTH_COOKIE_KEYS: required in production (comma-separated, the first signs)');
  }

  const dashboard = dashboardClient(env, production, problems);

  if (production && env.DATABASE_URL === undefined) {
    problems.push('DATABASE_URL: required in production (the embedded PGlite serves one process only)');
  }
  if (problems.length > 0) throw new EnvError(problems);

  return {
    config: {
      issuer: issuer.origin,
      mcpResourceUrl: resource.href,
      secureCookies: production,
      signupEnabled: env.AUTH_SIGNUP_ENABLED,
      trustProxy: env.AUTH_TRUST_PROXY,
      lifetimes: defaultLifetimes,
      dashboard,
      throttle: {
        loginPerAccount: { ...defaultThrottle.loginPerAccount, attempts: env.AUTH_LOGIN_ACCOUNT_ATTEMPTS },
        loginPerIp: { ...defaultThrottle.loginPerIp, attempts: env.AUTH_LOGIN_IP_ATTEMPTS },
        signupPerIp: { ...defaultThrottle.signupPerIp, attempts: env.AUTH_SIGNUP_IP_ATTEMPTS },
        registrationPerIp: { ...defaultThrottle.registrationPerIp, attempts: env.AUTH_REGISTRATION_IP_ATTEMPTS },
      },
    },
    production,
    port: env.AUTH_PORT,
    host: env.AUTH_HOST,
    logLevel: env.LOG_LEVEL,
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS,
    signingKeys,
    cookieKeys,
    localSecretsFile: env.AUTH_SECRETS_FILE,
    purgeIntervalSeconds: env.AUTH_PURGE_INTERVAL_SECONDS,
    redisUrl: env.REDIS_URL ?? null,
    ...databaseSettings(env),
  };
}

/** Development defaults, shared with apps/dashboard's env.ts so `pnpm start` needs no setting. */
export const DEVELOPMENT_DASHBOARD = {
  clientId: 'dashboard',
  clientSecret: 'development-dashboard-secret-not-for-production-use',
  url: 'http://localhost:4300',
} as const;

/**
 * The dashboard client: all three settings, or (development only) the defaults
 * for whichever are missing. In production, none means no dashboard client.
 */
function dashboardClient(env: z.infer<typeof EnvSchema>, production: boolean, problems: string[]): DashboardClient | null {
  const given = { clientId: env.DASHBOARD_CLIENT_ID, clientSecret: env.DASHBOARD_CLIENT_SECRET, url: env.DASHBOARD_URL };
  const missing = Object.entries({ DASHBOARD_CLIENT_ID: given.clientId, DASHBOARD_CLIENT_SECRET: given.clientSecret, DASHBOARD_URL: given.url })
    .filter(([, value]) => value === undefined)
    .map(([name]) => name);
  if (production) {
    if (missing.length === 3) return null;
    if (missing.length > 0) {
      problems.push(`${missing.join(', ')}: set all of DASHBOARD_CLIENT_ID, DASHBOARD_CLIENT_SECRET and DASHBOARD_URL, or none (no dashboard)`);
      return null;
    }
  }
  const url = new URL(given.url ?? DEVELOPMENT_DASHBOARD.url);
  if (url.pathname !== '/' || url.search !== '' || url.hash !== '') problems.push('DASHBOARD_URL: must be an origin without a path, e.g. https://dashboard.example.com');
  if (production && url.protocol !== 'https:' && !isLoopback(url)) problems.push('DASHBOARD_URL: must be an https URL in production (loopback addresses excepted)');
  return {
    clientId: given.clientId ?? DEVELOPMENT_DASHBOARD.clientId,
    clientSecret: given.clientSecret ?? DEVELOPMENT_DASHBOARD.clientSecret,
    url: url.origin,
  };
}

/** process.env, parsed once; on a bad value prints the message and exits (status 78, EX_CONFIG). */
export const loadEnv = envLoader(parseEnv);
