import {
  databaseSettings,
  type DatabaseSettings,
  EnvError,
  envLoader,
  isProduction,
  type ServiceSettings,
  serviceSettings,
  webhooksProblems,
} from '@cp/http-runtime';
import { workerSettings } from './settings.js';

// process.env, parsed once at start (the variables: settings.ts; nothing else reads process.env).

export interface Env extends DatabaseSettings, ServiceSettings {
  readonly port: number;
  readonly host: string | undefined;
  readonly pollingIntervalSeconds: number;
  /** WEBHOOKS_ALLOW_LOOPBACK: development only. */
  readonly webhooksAllowLoopback: boolean;
}

/** Parses the given environment; throws EnvError naming every bad variable. */
export function parseEnv(source: Readonly<Record<string, string | undefined>>): Env {
  const env = workerSettings.parse(source);
  const problems: string[] = [...webhooksProblems(env, { production: isProduction(env) })];
  if (isProduction(env) && !env.DATABASE_URL) problems.push('DATABASE_URL: required in production');
  if (problems.length > 0) throw new EnvError(problems);
  return {
    port: env.WORKER_PORT,
    host: env.WORKER_HOST,
    pollingIntervalSeconds: env.WORKER_POLL_SECONDS,
    webhooksAllowLoopback: env.WEBHOOKS_ALLOW_LOOPBACK,
    ...serviceSettings(env),
    ...databaseSettings(env),
  };
}

/** process.env, parsed once; on a bad value prints the message and exits (status 78, EX_CONFIG). */
export const loadEnv = envLoader(parseEnv);
