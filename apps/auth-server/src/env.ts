import { readFileSync } from 'node:fs';
import { type DatabaseSettings, databaseSettings, EnvError, envLoader, isProduction, publicUrlProblems, type ServiceSettings, serviceSettings } from '@cp/http-runtime';
import { ciIssuerRegistry } from './ci/issuers.js';
import { type AuthConfig, type DashboardClient, defaultCimd, defaultDeviceFlow, defaultExchange, defaultLifetimes, defaultThrottle } from './config.js';
import { parseSigningKeys, SigningKeyError, type SigningKey } from './keys/signing-keys.js';
import { type AuthSettings, authSettings } from './settings.js';

// process.env, parsed once at start (the variables: settings.ts; nothing else reads process.env).

export interface Env extends DatabaseSettings, ServiceSettings {
  /** Everything but the keys; the keys are filled in by main.ts (see `secrets`). */
  readonly config: Omit<AuthConfig, 'cookieKeys'>;
  readonly production: boolean;
  readonly port: number;
  readonly host: string | undefined;
  /** null: development, generate and keep them in `localSecretsFile`. */
  readonly signingKeys: SigningKey[] | null;
  readonly cookieKeys: string[] | null;
  readonly localSecretsFile: string;
  readonly purgeIntervalSeconds: number;
  /** Shared throttle counters (REDIS_URL); null: this process's memory. */
  readonly redisUrl: string | null;
}

/** Parses the given environment; throws EnvError naming every bad variable. */
export function parseEnv(source: Readonly<Record<string, string | undefined>>): Env {
  const env = authSettings.parse(source);
  const production = isProduction(env);
  const issuer = new URL(env.AUTH_ISSUER);
  const resource = new URL(env.MCP_PUBLIC_URL);
  const problems = [
    ...publicUrlProblems('AUTH_ISSUER', issuer, { origin: 'https://auth.example.com', https: production }),
    ...publicUrlProblems('MCP_PUBLIC_URL', resource, { https: production }),
  ];
  const signingKeys = readSigningKeys(env, production, problems);
  if (env.AUTH_COOKIE_KEYS === undefined && production) {
    problems.push('AUTH_COOKIE_KEYS: required in production (comma-separated, the first signs)');
  }
  const dashboard = dashboardClient(env, production, problems);
  if (production && env.DATABASE_URL === undefined) {
    problems.push('DATABASE_URL: required in production (the embedded PGlite serves one process only)');
  }
  if (production && env.AUTH_CIMD_ALLOW_LOOPBACK) {
    // The draft forbids this exception in production: any client_id URL could make the server call itself.
    problems.push('AUTH_CIMD_ALLOW_LOOPBACK: development only (lets client metadata documents be fetched from loopback addresses); unset it or set it to false in production');
  }
  if (production && env.AUTH_CI_DEV_ISSUERS !== undefined) {
    // An issuer added here mints tokens this server accepts as a CI's: only the fixed registry may do that in production.
    problems.push('AUTH_CI_DEV_ISSUERS: development only (adds CI issuers whose tokens are exchanged for access tokens); unset it in production');
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
      cimd: { ...defaultCimd, allowLoopback: env.AUTH_CIMD_ALLOW_LOOPBACK },
      exchange: { ...defaultExchange, ciIssuers: ciIssuerRegistry(env.AUTH_CI_DEV_ISSUERS ?? []) },
      deviceFlow: defaultDeviceFlow,
      throttle: {
        ...defaultThrottle,
        loginPerAccountNetwork: { ...defaultThrottle.loginPerAccountNetwork, attempts: env.AUTH_LOGIN_ACCOUNT_ATTEMPTS },
        loginPerNetwork: { ...defaultThrottle.loginPerNetwork, attempts: env.AUTH_LOGIN_IP_ATTEMPTS },
        signupPerNetwork: { ...defaultThrottle.signupPerNetwork, attempts: env.AUTH_SIGNUP_IP_ATTEMPTS },
        registrationPerNetwork: { ...defaultThrottle.registrationPerNetwork, attempts: env.AUTH_REGISTRATION_IP_ATTEMPTS },
      },
    },
    production,
    port: env.AUTH_PORT,
    host: env.AUTH_HOST,
    ...serviceSettings(env),
    signingKeys,
    cookieKeys: env.AUTH_COOKIE_KEYS ?? null,
    localSecretsFile: env.AUTH_SECRETS_FILE,
    purgeIntervalSeconds: env.AUTH_PURGE_INTERVAL_SECONDS,
    redisUrl: env.REDIS_URL ?? null,
    ...databaseSettings(env),
  };
}

/** AUTH_SIGNING_KEYS or the file AUTH_SIGNING_KEYS_FILE names (one, not both); null: development's generated keys. */
function readSigningKeys(env: AuthSettings, production: boolean, problems: string[]): SigningKey[] | null {
  if (env.AUTH_SIGNING_KEYS !== undefined && env.AUTH_SIGNING_KEYS_FILE !== undefined) {
    problems.push('AUTH_SIGNING_KEYS, AUTH_SIGNING_KEYS_FILE: set one, not both');
  }
  const file = env.AUTH_SIGNING_KEYS_FILE;
  const keysSource = file ?? env.AUTH_SIGNING_KEYS;
  if (keysSource === undefined) {
    if (production) problems.push('AUTH_SIGNING_KEYS: required in production (or AUTH_SIGNING_KEYS_FILE); see README "Signing keys"');
    return null;
  }
  const name = file !== undefined ? 'AUTH_SIGNING_KEYS_FILE' : 'AUTH_SIGNING_KEYS';
  try {
    return parseSigningKeys(file !== undefined ? readFileSync(file, 'utf8') : keysSource);
  } catch (error) {
    if (error instanceof SigningKeyError) problems.push(`${name}: ${error.message}`);
    else problems.push(`${name}: cannot read ${keysSource} (${(error as Error).message})`);
    return null;
  }
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
function dashboardClient(env: AuthSettings, production: boolean, problems: string[]): DashboardClient | null {
  const given = { DASHBOARD_CLIENT_ID: env.DASHBOARD_CLIENT_ID, DASHBOARD_CLIENT_SECRET: env.DASHBOARD_CLIENT_SECRET, DASHBOARD_URL: env.DASHBOARD_URL };
  const missing = Object.entries(given)
    .filter(([, value]) => value === undefined)
    .map(([name]) => name);
  if (production && missing.length === 3) return null;
  if (production && missing.length > 0) {
    problems.push(`${missing.join(', ')}: set all of DASHBOARD_CLIENT_ID, DASHBOARD_CLIENT_SECRET and DASHBOARD_URL, or none (no dashboard)`);
    return null;
  }
  const url = new URL(given.DASHBOARD_URL ?? DEVELOPMENT_DASHBOARD.url);
  problems.push(...publicUrlProblems('DASHBOARD_URL', url, { origin: 'https://dashboard.example.com', https: production }));
  return {
    clientId: given.DASHBOARD_CLIENT_ID ?? DEVELOPMENT_DASHBOARD.clientId,
    clientSecret: given.DASHBOARD_CLIENT_SECRET ?? DEVELOPMENT_DASHBOARD.clientSecret,
    url: url.origin,
  };
}

/** process.env, parsed once; on a bad value prints the message and exits (status 78, EX_CONFIG). */
export const loadEnv = envLoader(parseEnv);
