import {
  csv,
  defineSettings,
  host,
  httpUrl,
  intAtLeast,
  port,
  positiveInt,
  redisEnvShape,
  serviceEnvShape,
  storageEnvShape,
  trustProxy,
} from '@cp/http-runtime';
import { z } from 'zod';
import { defaultRateLimits, defaultTokenCacheSeconds } from './config.js';

/**
 * Every variable the MCP server reads, with its default and what it accepts
 * (docs/settings.md; docker/check.mjs checks that docker/.env.example lists
 * `mcpSettings.names`). env.ts checks what spans several and shapes the result.
 */
export const mcpSettings = defineSettings({
  ...serviceEnvShape,
  MCP_PORT: port(4100),
  MCP_HOST: host,
  MCP_PUBLIC_URL: httpUrl.default('http://localhost:4100/mcp'),
  MCP_ALLOWED_HOSTS: csv.optional(),
  MCP_ALLOWED_ORIGINS: csv.optional(),
  MCP_MAX_BODY_BYTES: positiveInt(1024 * 1024),
  MCP_CONTENT_CACHE_BYTES: intAtLeast(0, 64 * 1024 * 1024),
  MCP_TRUST_PROXY: trustProxy,
  DASHBOARD_URL: httpUrl.default('http://localhost:4300'),
  DELIVERY_API_URL: httpUrl.default('http://localhost:4200'),
  AUTH_ISSUER: httpUrl.default('http://localhost:4000'),
  AUTH_JWKS_URL: httpUrl.optional(),
  AUTH_GRANT_CACHE_SECONDS: z.coerce.number().int().min(0).max(30, 'must be at most 30 (revocation must apply within 30 s)').default(30),
  MCP_TOKEN_CACHE_SECONDS: z.coerce
    .number()
    .int()
    .min(30, 'must be at least 30 (below, every request would fetch the JWKS again)')
    .max(900, 'must be at most 900 (a signing key removed from the JWKS must stop working within minutes)')
    .default(defaultTokenCacheSeconds),
  ...redisEnvShape,
  RATE_LIMIT_USER_POINTS: positiveInt(defaultRateLimits.userPoints),
  RATE_LIMIT_IP_POINTS: positiveInt(defaultRateLimits.ipPoints),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt(defaultRateLimits.windowSeconds),
  RATE_LIMIT_UPLOAD_POINTS: positiveInt(defaultRateLimits.uploadPoints),
  RATE_LIMIT_UPLOAD_WINDOW_SECONDS: positiveInt(defaultRateLimits.uploadWindowSeconds),
  MAX_UPLOAD_BYTES: positiveInt(5 * 1024 * 1024),
  ...storageEnvShape,
});
