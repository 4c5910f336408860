import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateLimitConfig } from '../config.js';

export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window resets (at least 1 when refused). */
  readonly resetSeconds: number;
  readonly windowSeconds: number;
}

export interface RateLimiter {
  consume(key: string): Promise<RateDecision>;
}

/** The three budgets: per user with a token, per IP without one, and upload starts per user. */
export interface RateLimits {
  readonly user: RateLimiter;
  readonly ip: RateLimiter;
  readonly upload: RateLimiter;
}

function wrap(limiter: RateLimiterAbstract, points: number, windowSeconds: number): RateLimiter {
  const decision = (res: RateLimiterRes, allowed: boolean): RateDecision => ({
    allowed,
    limit: points,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(allowed ? 0 : 1, Math.ceil(res.msBeforeNext / 1000)),
    windowSeconds,
  });
  return {
    async consume(key) {
      try {
        return decision(await limiter.consume(key), true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decision(rejection, false);
        throw rejection;
      }
    },
  };
}

/**
 * With a Redis client, counters are shared by every instance; if Redis fails,
 * each instance falls back to its own memory counters (the insurance limiter)
 * rather than refusing or waving through all traffic.
 */
export function createRateLimits(config: RateLimitConfig, options: { redis?: Redis | null; keyPrefix?: string } = {}): RateLimits {
  const prefix = options.keyPrefix ?? 'mcp-rl';
  const make = (name: string, points: number, duration: number): RateLimiter => {
    const memory = new RateLimiterMemory({ keyPrefix: `${prefix}:${name}`, points, duration });
    const limiter = options.redis
      ? new RateLimiterRedis({ storeClient: options.redis, keyPrefix: `${prefix}:${name}`, points, duration, insuranceLimiter: memory })
      : memory;
    return wrap(limiter, points, duration);
  };
  return {
    user: make('user', config.userPoints, config.windowSeconds),
    ip: make('ip', config.ipPoints, config.windowSeconds),
    upload: make('upload', config.uploadPoints, config.uploadWindowSeconds),
  };
}
