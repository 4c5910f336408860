/*
 * Rate limits over rate-limiter-flexible, in memory or shared through Redis: the MCP
 * server's request budgets and the auth server's throttles. A subpath of its own
 * (`@cp/http-runtime/rate-limit`) so services without limits never load ioredis.
 */
export { createRateLimiter, RateLimitStoreError, REDIS_HUNG_PAUSE_MS, type RateDecision, type RateLimiter, type RateLimiterOptions, type StoreFailurePolicy } from './limiter.js';
export {
  connectRedis,
  createRedisClient,
  describeRedis,
  REDIS_COMMAND_TIMEOUT_MS,
  REDIS_CONNECT_TIMEOUT_MS,
  type ConnectRedisOptions,
  type Redis,
  type RedisClientOptions,
  type RedisLog,
} from './redis.js';
