import { EnvError, envLoader, isProduction, publicUrlProblems, type ServiceSettings, serviceSettings, type StorageSettings, storageProblems, storageSettings } from '@cp/http-runtime';
import { type AppConfig, defaultUsagePolicy } from './config.js';
import { deliverySettings } from './settings.js';

// process.env, parsed once at start (the variables: settings.ts; nothing else reads process.env).

export interface Env extends StorageSettings, ServiceSettings {
  readonly app: AppConfig;
  readonly host: string | undefined;
  /** Shared rate-limit counters (REDIS_URL); null: this process's memory. */
  readonly redisUrl: string | null;
}

/** Parses the given environment; throws EnvError naming every bad variable. */
export function parseEnv(source: Readonly<Record<string, string | undefined>>): Env {
  const env = deliverySettings.parse(source);
  const problems = [
    ...publicUrlProblems('DELIVERY_PUBLIC_URL', new URL(env.DELIVERY_PUBLIC_URL)),
    ...storageProblems(env, { production: isProduction(env) }),
  ];
  if (problems.length > 0) throw new EnvError(problems);
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
      changeStreams: {
        heartbeatMs: env.DELIVERY_CHANGES_HEARTBEAT_SECONDS * 1000,
        maxStreamsPerClient: env.DELIVERY_CHANGES_MAX_STREAMS_PER_CLIENT,
        maxStreams: env.DELIVERY_CHANGES_MAX_STREAMS,
      },
      usage: {
        ...defaultUsagePolicy,
        eventsPerNetwork: env.DELIVERY_USAGE_EVENTS_PER_NETWORK,
        eventsPerComponent: env.DELIVERY_USAGE_EVENTS_PER_COMPONENT,
        maxBufferedRows: env.DELIVERY_USAGE_MAX_BUFFERED_ROWS,
      },
      trustProxy: env.DELIVERY_TRUST_PROXY,
      flowEnvironment: env.DELIVERY_FLOW_ENVIRONMENT,
      flowSunset: new Date(env.DELIVERY_FLOW_SUNSET),
      loadTimeoutMs: env.DELIVERY_LOAD_TIMEOUT_MS,
      retryAfterSeconds: 5,
    },
    host: env.DELIVERY_HOST,
    redisUrl: env.REDIS_URL ?? null,
    ...serviceSettings(env),
    ...storageSettings(env),
  };
}

/** process.env, parsed once; on a bad value prints the message and exits (status 78, EX_CONFIG). */
export const loadEnv = envLoader(parseEnv);
