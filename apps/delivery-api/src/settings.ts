import { defineSettings, host, httpUrl, intAtLeast, port, redisEnvShape, serviceEnvShape, storageEnvShape, trustProxy } from '@cp/http-runtime';
import { z } from 'zod';
import { DEFAULT_FLOW_SUNSET, DEFAULT_LOAD_TIMEOUT_MS, defaultCachePolicy, defaultChangeStreamPolicy, defaultUsagePolicy } from './config.js';

/**
 * Every variable the delivery API reads, with its default and what it accepts
 * (docs/settings.md; docker/check.mjs checks that docker/.env.example lists
 * `deliverySettings.names`). env.ts checks what spans several and shapes the result.
 */
export const deliverySettings = defineSettings({
  ...serviceEnvShape,
  DELIVERY_PORT: port(4200),
  DELIVERY_HOST: host,
  DELIVERY_PUBLIC_URL: httpUrl.default('http://localhost:4200'),
  DELIVERY_CACHE_MAX_BYTES: intAtLeast(0, defaultCachePolicy.maxBytes),
  DELIVERY_CACHE_TTL_SECONDS: intAtLeast(1, defaultCachePolicy.ttlSeconds),
  DELIVERY_STALE_IF_ERROR_SECONDS: intAtLeast(0, defaultCachePolicy.staleIfErrorSeconds),
  DELIVERY_MAX_AGE_SECONDS: intAtLeast(0, defaultCachePolicy.maxAgeSeconds),
  DELIVERY_STALE_WHILE_REVALIDATE_SECONDS: intAtLeast(0, defaultCachePolicy.staleWhileRevalidateSeconds),
  DELIVERY_COMPRESSION_MIN_BYTES: intAtLeast(0, defaultCachePolicy.compressionMinBytes),
  DELIVERY_FLOW_ENVIRONMENT: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be an environment name such as prod')
    .default('prod'),
  DELIVERY_FLOW_SUNSET: z.iso
    .datetime({ offset: true, error: 'must be an ISO 8601 date-time such as 2027-06-30T00:00:00Z' })
    .default(DEFAULT_FLOW_SUNSET.toISOString()),
  DELIVERY_LOAD_TIMEOUT_MS: intAtLeast(1, DEFAULT_LOAD_TIMEOUT_MS),
  DELIVERY_TRUST_PROXY: trustProxy,
  // At most 5 minutes: a quieter stream is cut by common proxies' idle timeouts.
  DELIVERY_CHANGES_HEARTBEAT_SECONDS: z.coerce.number().int().min(1).max(300).default(defaultChangeStreamPolicy.heartbeatMs / 1000),
  DELIVERY_CHANGES_MAX_STREAMS_PER_CLIENT: intAtLeast(1, defaultChangeStreamPolicy.maxStreamsPerClient),
  DELIVERY_CHANGES_MAX_STREAMS: intAtLeast(1, defaultChangeStreamPolicy.maxStreams),
  // Per minute, counted in events (a batch of 20 pays 20).
  DELIVERY_USAGE_EVENTS_PER_NETWORK: intAtLeast(1, defaultUsagePolicy.eventsPerNetwork),
  DELIVERY_USAGE_EVENTS_PER_COMPONENT: intAtLeast(1, defaultUsagePolicy.eventsPerComponent),
  DELIVERY_USAGE_MAX_BUFFERED_ROWS: intAtLeast(1, defaultUsagePolicy.maxBufferedRows),
  ...storageEnvShape,
  ...redisEnvShape,
});
