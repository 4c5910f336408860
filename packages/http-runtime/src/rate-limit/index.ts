/*
 * Rate limits over rate-limiter-flexible, in memory or shared through Redis: the MCP
 * server's request budgets and the auth server's throttles. A subpath of its own
 * (`@cp/http-runtime/rate-limit`) so services without limits never load ioredis.
 */
export { createRateLimiter, RateLimitStoreError, type RateDecision, type RateLimiter, type RateLimiterOptions, type StoreFailurePolicy } from './limiter.js';
export { connectRedis, describeRedis, type ConnectRedisOptions, type Redis, type RedisLog } from './redis.js';
