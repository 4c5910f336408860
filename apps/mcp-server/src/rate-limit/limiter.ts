import { createRateLimiter, type RateDecision, type Redis } from '@cp/http-runtime/rate-limit';
import type { RateLimitConfig } from '../config.js';

export type { RateDecision } from '@cp/http-runtime/rate-limit';

/** What the endpoint needs of a budget (the shared limiter in packages/http-runtime satisfies it). */
export interface RateLimiter {
  consume(key: string): Promise<RateDecision>;
}

/** The three budgets: per user with a token, per IP without one, and upload starts per user. */
export interface RateLimits {
  readonly user: RateLimiter;
  readonly ip: RateLimiter;
  readonly upload: RateLimiter;
}

/**
 * With a Redis client, counters are shared by every instance; if Redis fails,
 * each instance falls back to its own memory counters (the insurance limiter)
 * rather than refusing or waving through all traffic.
 */
export function createRateLimits(config: RateLimitConfig, options: { redis?: Redis | null; keyPrefix?: string } = {}): RateLimits {
  const prefix = options.keyPrefix ?? 'mcp-rl';
  const make = (name: string, points: number, windowSeconds: number): RateLimiter =>
    createRateLimiter({ keyPrefix: `${prefix}:${name}`, points, windowSeconds, redis: options.redis ?? null, onStoreFailure: 'memory' });
  return {
    user: make('user', config.userPoints, config.windowSeconds),
    ip: make('ip', config.ipPoints, config.windowSeconds),
    upload: make('upload', config.uploadPoints, config.uploadWindowSeconds),
  };
}
