import { EnvError, envLoader, isProduction, publicUrlProblems, type ServiceSettings, serviceSettings, type StorageSettings, storageProblems, storageSettings } from '@cp/http-runtime';
import { type AppConfig, deriveAllowedHosts, deriveAllowedOrigins } from './config.js';
import { mcpSettings } from './settings.js';

// process.env, parsed once at start (the variables: settings.ts; nothing else reads process.env).

export interface Env extends StorageSettings, ServiceSettings {
  readonly app: AppConfig;
  readonly host: string | undefined;
  readonly redisUrl: string | null;
  readonly maxUploadBytes: number;
}

/** Parses the given environment; throws EnvError naming every bad variable. */
export function parseEnv(source: Readonly<Record<string, string | undefined>>): Env {
  const env = mcpSettings.parse(source);
  const problems = [
    ...publicUrlProblems('MCP_PUBLIC_URL', new URL(env.MCP_PUBLIC_URL)),
    ...storageProblems(env, { production: isProduction(env) }),
  ];
  if (problems.length > 0) throw new EnvError(problems);
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
        // One setting bounds both caches a removed signing key could hide in.
        tokenCacheSeconds: env.MCP_TOKEN_CACHE_SECONDS,
        jwksMaxAgeMs: env.MCP_TOKEN_CACHE_SECONDS * 1000,
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
    ...serviceSettings(env),
    redisUrl: env.REDIS_URL ?? null,
    maxUploadBytes: env.MAX_UPLOAD_BYTES,
    ...storageSettings(env),
  };
}

/** The S3 settings of a server run alone: a real S3 (the embedded one is `pnpm start`'s). */
export interface StandaloneS3 {
  readonly endpoint: string;
  readonly publicEndpoint: string | undefined;
  readonly accessKey: string;
  readonly secretKey: string;
  readonly bucket: string;
  readonly region: string;
}

/**
 * process.env for main.ts, parsed once; on a bad value, or without S3_ENDPOINT,
 * prints the message and exits (status 78, EX_CONFIG).
 */
export const loadEnv = envLoader((source): Env & { standaloneS3: StandaloneS3 } => {
  const env = parseEnv(source);
  const { endpoint, publicEndpoint, accessKey, secretKey, bucket, region } = env.s3;
  if (endpoint === null || accessKey === null || secretKey === null) {
    throw new EnvError(['S3_ENDPOINT: required to run the MCP server alone (`pnpm start` runs the embedded stack instead)']);
  }
  return { ...env, standaloneS3: { endpoint, publicEndpoint: publicEndpoint ?? undefined, accessKey, secretKey, bucket, region } };
});
