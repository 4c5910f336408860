import {
  databaseEnvShape,
  defineSettings,
  exportEnvShape,
  host,
  objectStoreEnvShape,
  port,
  serviceEnvShape,
  webhooksEnvShape,
} from '@cp/http-runtime';
import { z } from 'zod';

/**
 * Every variable the worker reads, with its default and what it accepts (docs/settings.md;
 * docker/check.mjs checks that docker/.env.example lists `workerSettings.names`).
 */
export const workerSettings = defineSettings({
  ...serviceEnvShape,
  ...databaseEnvShape,
  ...webhooksEnvShape,
  WORKER_PORT: port(4500),
  WORKER_HOST: host,
  // pg-boss polls at most every half second.
  WORKER_POLL_SECONDS: z.coerce.number().min(0.5).max(60).default(2),
  // The static export reads variants from S3_BUCKET and writes EXPORT_BUCKET on the same endpoint.
  ...objectStoreEnvShape,
  ...exportEnvShape,
  // Memory for the variant loaders the static export builds (variants are immutable).
  WORKER_EXPORT_CACHE_BYTES: z.coerce.number().int().min(0).default(16 * 1024 * 1024),
  // Usage analytics (docs/usage-analytics.md, "Retention"): raw events by whole days (the current
  // day is never dropped), minute rollups long enough for the hourly ones to be complete.
  USAGE_RAW_RETENTION_DAYS: z.coerce.number().int().min(1).max(366).default(7),
  USAGE_MINUTE_RETENTION_HOURS: z.coerce.number().int().min(6).max(24 * 31).default(48),
  USAGE_HOUR_RETENTION_MONTHS: z.coerce.number().int().min(1).max(120).default(13),
});
