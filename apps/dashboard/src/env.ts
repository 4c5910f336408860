import { type DatabaseSettings, databaseSettings, EnvError, envLoader, exportSettings, isProduction, publicUrlProblems, type ServiceSettings, serviceSettings, webhooksProblems } from '@cp/http-runtime';
import { COMPONENT_PAGE_SIZES, type DashboardConfig } from './config.js';
import { dashboardSettings } from './settings.js';

// process.env, parsed once at start (the variables: settings.ts; nothing else reads process.env).

export interface Env extends DatabaseSettings, ServiceSettings {
  /** Everything but the session keys, which `sessionKeysFor` (session-key-file.ts) resolves. */
  readonly app: Omit<DashboardConfig, 'sessionKeys'>;
  /** DASHBOARD_SESSION_KEYS; null: this installation's generated key, kept in `secretsFile`. */
  readonly sessionKeys: string[] | null;
  /** DASHBOARD_SECRETS_FILE (development): where the generated session key is kept. */
  readonly secretsFile: string;
  readonly port: number;
  readonly host: string | undefined;
  /** null: the embedded S3 server, on `s3Bucket`. */
  readonly s3: { endpoint: string; accessKey: string; secretKey: string; bucket: string; region: string } | null;
  readonly s3Bucket: string;
}

export function parseEnv(source: Readonly<Record<string, string | undefined>>): Env {
  const env = dashboardSettings.parse(source);
  const production = isProduction(env);
  const url = new URL(env.DASHBOARD_URL);
  const issuer = new URL(env.AUTH_ISSUER);
  const problems = [
    ...publicUrlProblems('DASHBOARD_URL', url, { origin: 'https://dashboard.example.com', https: production }),
    ...publicUrlProblems('AUTH_ISSUER', issuer, { https: production }),
  ];
  if (production) {
    if (env.DASHBOARD_CLIENT_SECRET === undefined) problems.push("DASHBOARD_CLIENT_SECRET: required in production (the same value as the auth server's)");
    if (env.DASHBOARD_SESSION_KEYS === undefined) problems.push('DASHBOARD_SESSION_KEYS: required in production (comma-separated, >= 32 characters, the first signs)');
    if (env.DATABASE_URL === undefined) problems.push('DATABASE_URL: required in production');
  }
  const s3Given = [env.S3_ENDPOINT, env.S3_ACCESS_KEY, env.S3_SECRET_KEY].filter((value) => value !== undefined).length;
  if (env.MAIL_FROM !== undefined && env.SMTP_URL === undefined) problems.push('MAIL_FROM: set SMTP_URL too (without it no email is sent)');
  if (s3Given > 0 && s3Given < 3) problems.push('S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY: set all three, or none (the embedded S3 server)');
  problems.push(...webhooksProblems(env, { production }));
  if (problems.length > 0) throw new EnvError(problems);

  return {
    app: {
      publicUrl: url.origin,
      issuer: issuer.origin,
      clientId: env.DASHBOARD_CLIENT_ID,
      clientSecret: env.DASHBOARD_CLIENT_SECRET ?? 'development-dashboard-secret-not-for-production-use',
      secureCookies: production,
      sessionSeconds: env.DASHBOARD_SESSION_HOURS * 3600,
      mcpUrl: env.MCP_PUBLIC_URL,
      deliveryUrl: env.DELIVERY_PUBLIC_URL.replace(/\/$/, ''),
      trustProxy: env.DASHBOARD_TRUST_PROXY,
      componentPageSizes: COMPONENT_PAGE_SIZES,
      invitationTtlSeconds: env.INVITATION_TTL_HOURS * 3600,
      staticExport: { prefix: exportSettings(env).prefix, publicUrl: exportSettings(env).publicUrl },
      webhooksAllowLoopback: env.WEBHOOKS_ALLOW_LOOPBACK,
      mail: env.SMTP_URL === undefined ? null : { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM ?? `Component dashboard <no-reply@${url.hostname}>` },
    },
    sessionKeys: env.DASHBOARD_SESSION_KEYS ?? null,
    secretsFile: env.DASHBOARD_SECRETS_FILE,
    port: env.DASHBOARD_PORT,
    host: env.DASHBOARD_HOST,
    ...serviceSettings(env),
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
