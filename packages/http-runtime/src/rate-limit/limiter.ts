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

/**
 * After a command to a Redis client timed out (Redis hangs: a partition, a stalled server),
 * every limiter on that client skips it for this long and answers by its store-failure
 * policy at once, instead of each request waiting out the command timeout again. The next
 * request after the pause tries Redis again.
 */
export const REDIS_HUNG_PAUSE_MS = 2000;
const pausedUntil = new WeakMap<Redis, number>();
const isTimeout = (error: unknown): boolean => error instanceof Error && error.message === 'Command timed out';

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { keyPrefix, points, windowSeconds } = options;
  const memory = new RateLimiterMemory({ keyPrefix, points, duration: windowSeconds });
  const redis = options.redis ?? null;
  const shared =
    redis === null
      ? null
      : new RateLimiterRedis({
          storeClient: redis,
          keyPrefix,
          points,
          duration: windowSeconds,
          // Fail at once while disconnected rather than wait for a reconnection.
          rejectIfRedisNotReady: true,
        });
  const policy = options.onStoreFailure ?? 'memory';

  /** Runs `operation` on Redis, or, when Redis fails or is paused, by the policy: in memory, or RateLimitStoreError. */
  const run = async <T>(operation: (store: RateLimiterAbstract) => Promise<T>): Promise<T> => {
    if (redis === null || shared === null) return operation(memory);
    let failure: unknown;
    if ((pausedUntil.get(redis) ?? 0) > Date.now()) {
      failure = new Error('Redis timed out moments ago; not waiting on it again yet');
    } else {
      try {
        return await operation(shared);
      } catch (error) {
        if (error instanceof RateLimiterRes) throw error;
        if (isTimeout(error)) pausedUntil.set(redis, Date.now() + REDIS_HUNG_PAUSE_MS);
        failure = error;
      }
    }
    if (policy === 'memory') return operation(memory);
    throw new RateLimitStoreError(keyPrefix, failure);
  };

  const decision = (res: RateLimiterRes, allowed: boolean): RateDecision => ({
    allowed,
    limit: points,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(allowed ? 0 : 1, Math.ceil(res.msBeforeNext / 1000)),
    windowSeconds,
  });

  return {
    async consume(key, cost = 1) {
      if (!Number.isSafeInteger(cost) || cost < 1) throw new RangeError(`${keyPrefix}: points to consume must be a positive integer, got ${cost}`);
      try {
        return decision(await run((store) => store.consume(key, cost)), true);
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return decision(rejection, false);
        throw rejection;
      }
    },
    async peek(key) {
      const res = await run((store) => store.get(key));
      if (res === null) return { allowed: true, limit: points, remaining: points, resetSeconds: 0, windowSeconds };
      return decision(res, res.consumedPoints < points);
    },
    async refund(key) {
      await run((store) => store.reward(key, 1));
    },
    async reset(key) {
      await run((store) => store.delete(key));
    },
  };
}
