import {
  databaseSettings,
  type DatabaseSettings,
  EnvError,
  envLoader,
  exportSettings,
  type ExportSettings,
  isProduction,
  type ServiceSettings,
  serviceSettings,
  webhooksProblems,
} from '@cp/http-runtime';
import type { UsageRetention } from './usage/usage-jobs.js';
import { workerSettings } from './settings.js';

// process.env, parsed once at start (the variables: settings.ts; nothing else reads process.env).

export interface Env extends DatabaseSettings, ServiceSettings {
  readonly port: number;
  readonly host: string | undefined;
  readonly pollingIntervalSeconds: number;
  /** null: no S3 settings, so no static export here (development: `pnpm start` gives its embedded server). */
  readonly s3: { endpoint: string; accessKey: string; secretKey: string; bucket: string; region: string } | null;
  readonly staticExport: ExportSettings & { readonly cacheBytes: number };
  /** WEBHOOKS_ALLOW_LOOPBACK: development only. */
  readonly webhooksAllowLoopback: boolean;
  /** How long the usage analytics' tables keep their rows. */
  readonly usageRetention: UsageRetention;
}

/** Parses the given environment; throws EnvError naming every bad variable. */
export function parseEnv(source: Readonly<Record<string, string | undefined>>): Env {
  const env = workerSettings.parse(source);
  const problems: string[] = [...webhooksProblems(env, { production: isProduction(env) })];
  if (isProduction(env) && !env.DATABASE_URL) problems.push('DATABASE_URL: required in production');
  const s3Given = [env.S3_ENDPOINT, env.S3_ACCESS_KEY, env.S3_SECRET_KEY].filter((value) => value !== undefined).length;
  if (s3Given > 0 && s3Given < 3) problems.push('S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY: set all three, or none (no static export from this worker)');
  else if (isProduction(env) && s3Given === 0) problems.push('S3_ENDPOINT: required in production (the static export reads and writes objects)');
  if (env.EXPORT_BUCKET === env.S3_BUCKET) problems.push('EXPORT_BUCKET: must differ from S3_BUCKET (the export bucket is public; the variants bucket is not)');
  if (problems.length > 0) throw new EnvError(problems);
  return {
    port: env.WORKER_PORT,
    host: env.WORKER_HOST,
    pollingIntervalSeconds: env.WORKER_POLL_SECONDS,
    s3:
      env.S3_ENDPOINT && env.S3_ACCESS_KEY && env.S3_SECRET_KEY
        ? { endpoint: env.S3_ENDPOINT, accessKey: env.S3_ACCESS_KEY, secretKey: env.S3_SECRET_KEY, bucket: env.S3_BUCKET, region: env.S3_REGION }
        : null,
    staticExport: { ...exportSettings(env), cacheBytes: env.WORKER_EXPORT_CACHE_BYTES },
    webhooksAllowLoopback: env.WEBHOOKS_ALLOW_LOOPBACK,
    usageRetention: {
      rawDays: env.USAGE_RAW_RETENTION_DAYS,
      minuteHours: env.USAGE_MINUTE_RETENTION_HOURS,
      hourMonths: env.USAGE_HOUR_RETENTION_MONTHS,
    },
    ...serviceSettings(env),
    ...databaseSettings(env),
  };
}

/** process.env, parsed once; on a bad value prints the message and exits (status 78, EX_CONFIG). */
export const loadEnv = envLoader(parseEnv);
