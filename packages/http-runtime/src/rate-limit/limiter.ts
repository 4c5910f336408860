import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** One key's budget after a request (or, for `peek`, as it stands). */
export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window resets (at least 1 when refused). */
  readonly resetSeconds: number;
  readonly windowSeconds: number;
}

/** A fixed-window counter of points per key (rate-limiter-flexible underneath). */
export interface RateLimiter {
  /**
   * Counts `points` (default one) in one atomic step, in memory and in Redis alike:
   * refused (not thrown) when the key's budget does not cover them all, so N parallel
   * callers can never together pass more than the budget. A refusal still counts.
   */
  consume(key: string, points?: number): Promise<RateDecision>;
  /** The key's budget without counting: refused while it is spent. */
  peek(key: string): Promise<RateDecision>;
  /** Gives back one point counted by `consume` (the attempt turned out not to count). */
  refund(key: string): Promise<void>;
  /** Forgets the key (its next request starts a new window). */
  reset(key: string): Promise<void>;
}

/**
 * What a limiter does when its Redis store fails (unreachable, timed out):
 * - `memory`: counts in this process until Redis answers again (availability first:
 *   each instance then enforces the budget on its own, so N instances allow N times it);
 * - `refuse`: throws RateLimitStoreError (the budget never silently grows; the caller
 *   refuses the request, e.g. with 503).
 */
export type StoreFailurePolicy = 'memory' | 'refuse';

export interface RateLimiterOptions {
  /** Namespace of this limiter's keys (`<keyPrefix>:<key>`), unique per limiter, e.g. `mcp-rl:user`. */
  readonly keyPrefix: string;
  readonly points: number;
  readonly windowSeconds: number;
  /** Shared counters in Redis; null or absent: this process's memory. */
  readonly redis?: Redis | null;
  /** Only with `redis`. Default `memory`. */
  readonly onStoreFailure?: StoreFailurePolicy;
}

/** The rate-limit store could not be read or written, and the limiter is set to refuse. */
export class RateLimitStoreError extends Error {
  override readonly name = 'RateLimitStoreError';
  constructor(
    readonly keyPrefix: string,
    cause: unknown,
  ) {
    super(`rate-limit store unavailable for ${keyPrefix}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { keyPrefix, points, windowSeconds } = options;
  const memory = new RateLimiterMemory({ keyPrefix, points, duration: windowSeconds });
  const limiter: RateLimiterAbstract = options.redis
    ? new RateLimiterRedis({
        storeClient: options.redis,
        keyPrefix,
        points,
        duration: windowSeconds,
        // Fail at once while disconnected rather than wait for a reconnection.
        rejectIfRedisNotReady: true,
        ...((options.onStoreFailure ?? 'memory') === 'memory' ? { insuranceLimiter: memory } : {}),
      })
    : memory;

  const decision = (res: RateLimiterRes, allowed: boolean): RateDecision => ({
    allowed,
    limit: points,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(allowed ? 0 : 1, Math.ceil(res.msBeforeNext / 1000)),
    windowSeconds,
  });
  const storeError = (error: unknown): RateLimitStoreError => new RateLimitStoreError(keyPrefix, error);

  return {
    async consume(key, cost = 1) {
      if (!Number.isSafeInteger(cost) || cost < 1) throw new RangeError(`${keyPrefix}: points to consume must be a positive integer, got ${cost}`);
      try {
        return decision(await limiter.consume(key, cost), true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decision(rejection, false);
        throw storeError(rejection);
      }
    },
    async peek(key) {
      let res: RateLimiterRes | null;
      try {
        res = await limiter.get(key);
      } catch (error) {
        throw storeError(error);
      }
      if (res === null) return { allowed: true, limit: points, remaining: points, resetSeconds: 0, windowSeconds };
      return decision(res, res.consumedPoints < points);
    },
    async refund(key) {
      try {
        await limiter.reward(key, 1);
      } catch (error) {
        throw storeError(error);
      }
    },
    async reset(key) {
      try {
        await limiter.delete(key);
      } catch (error) {
        throw storeError(error);
      }
    },
  };
}
