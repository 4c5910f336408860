import { z } from 'zod';
import { httpUrl, type Parsed } from './pieces.js';

/*
 * The storage settings the services share: the database (DATABASE_URL, or PGlite in
 * PGLITE_DATA_DIR) and the S3 object store (S3_*). Each app spreads these shapes into
 * its own settings (`defineSettings`), so every service reads them with the same names,
 * defaults and messages. Empty values are dropped before parsing (they count as
 * unset), so `.optional()` here also covers `S3_ENDPOINT=`.
 */

/** Without DATABASE_URL, the embedded PGlite in PGLITE_DATA_DIR (development only). */
export const databaseEnvShape = {
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
  PGLITE_DATA_DIR: z.string().min(1).default('.data/pglite'),
};

/** Without S3_ENDPOINT, the embedded S3 server (development only). */
export const objectStoreEnvShape = {
  S3_ENDPOINT: httpUrl.optional(),
  S3_ACCESS_KEY: z.string().min(1).optional(),
  S3_SECRET_KEY: z.string().min(1).optional(),
  S3_BUCKET: z.string().min(3).default('components'),
  S3_REGION: z.string().min(1).default('us-east-1'),
};

/**
 * Both, plus S3_PUBLIC_ENDPOINT (the origin written into presigned URLs), for the
 * services that hand out presigned URLs or may (MCP server, delivery API).
 */
export const storageEnvShape = {
  ...databaseEnvShape,
  ...objectStoreEnvShape,
  S3_PUBLIC_ENDPOINT: httpUrl.optional(),
};

/**
 * Shared counters in Redis (the MCP server's rate limits, the auth server's throttles).
 * Without REDIS_URL each process counts in its own memory.
 */
export const redisEnvShape = {
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
};

export interface DatabaseSettings {
  /** null: the embedded PGlite. */
  readonly databaseUrl: string | null;
  readonly pgliteDataDir: string;
}

export interface StorageSettings extends DatabaseSettings {
  /** Each null when unset; `endpoint: null` means the embedded S3 server. */
  readonly s3: {
    readonly endpoint: string | null;
    readonly publicEndpoint: string | null;
    readonly accessKey: string | null;
    readonly secretKey: string | null;
    readonly bucket: string;
    readonly region: string;
  };
}

export function databaseSettings(env: Parsed<typeof databaseEnvShape>): DatabaseSettings {
  return { databaseUrl: env.DATABASE_URL ?? null, pgliteDataDir: env.PGLITE_DATA_DIR };
}

export function storageSettings(env: Parsed<typeof storageEnvShape>): StorageSettings {
  return {
    ...databaseSettings(env),
    s3: {
      endpoint: env.S3_ENDPOINT ?? null,
      publicEndpoint: env.S3_PUBLIC_ENDPOINT ?? null,
      accessKey: env.S3_ACCESS_KEY ?? null,
      secretKey: env.S3_SECRET_KEY ?? null,
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
    },
  };
}

/**
 * What is wrong with the storage settings of a service that may fall back to the
 * embedded stores only outside production, one line a problem ("NAME: what to do").
 * An S3_ENDPOINT without its keys is reported on its own: production's requirements
 * are checked once the S3 settings are complete or absent.
 */
export function storageProblems(env: Parsed<typeof storageEnvShape>, { production }: { production: boolean }): string[] {
  if (env.S3_ENDPOINT !== undefined && (env.S3_ACCESS_KEY === undefined || env.S3_SECRET_KEY === undefined)) {
    return ['S3_ACCESS_KEY, S3_SECRET_KEY: required when S3_ENDPOINT is set'];
  }
  if (!production) return [];
  // In production a missing store must stop the start, not fall back to the embedded ones.
  const missing = (['DATABASE_URL', 'S3_ENDPOINT'] as const).filter((name) => env[name] === undefined);
  return missing.map((name) => `${name}: required in production`);
}
