import { createHmac, hkdfSync } from 'node:crypto';
import { createRateLimiter, type Redis } from '@cp/http-runtime/rate-limit';
import type { ThrottleConfig } from '../config.js';

/** A counter of attempts per key over a fixed window. */
export interface Throttle {
  /** Seconds until `key` may try again, or 0 when it is not blocked. */
  retryAfter(key: string): Promise<number>;
  /** Counts one attempt; returns the seconds to wait when this one went over the limit, else 0. */
  hit(key: string): Promise<number>;
  /** Forgets the key (a successful sign-in clears its account's failures). */
  reset(key: string): Promise<void>;
}

export interface Throttles {
  readonly loginPerAccount: Throttle;
  readonly loginPerIp: Throttle;
  readonly signupPerIp: Throttle;
  readonly registrationPerIp: Throttle;
}

/** Retry-After of a throttled request refused because the store (Redis) does not answer. */
export const STORE_UNAVAILABLE_RETRY_SECONDS = 30;

export interface ThrottleStore {
  /** Shared counters (every instance, across restarts); null: this process's memory. */
  readonly redis: Redis | null;
  /** Namespace of the keys; each throttle adds its own name (`auth-rl:login-account:...`). */
  readonly keyPrefix?: string;
  /**
   * A secret every instance shares (main.ts: the first cookie key). Keys are stored as
   * HMACs under a key derived from it, so the store never holds an email address or an IP.
   */
  readonly keySecret: string;
}

/**
 * The four throttles. With Redis the counts are shared by every instance and survive
 * restarts; if Redis stops answering, every throttled request fails with
 * RateLimitStoreError (the app answers 503) rather than counting in memory: a
 * budget that silently multiplies by the number of instances, and starts from zero,
 * is what these throttles exist to prevent (README "Throttling").
 */
export function createThrottles(config: ThrottleConfig, store: ThrottleStore): Throttles {
  const prefix = store.keyPrefix ?? 'auth-rl';
  const hmacKey = Buffer.from(hkdfSync('sha256', store.keySecret, 'cp-auth-throttle', 'throttle keys v1', 32));
  const hashed = (key: string): string => createHmac('sha256', hmacKey).update(key).digest('base64url');

  const throttle = (name: string, { attempts, windowSeconds }: { attempts: number; windowSeconds: number }): Throttle => {
    const limiter = createRateLimiter({ keyPrefix: `${prefix}:${name}`, points: attempts, windowSeconds, redis: store.redis, onStoreFailure: 'refuse' });
    return {
      async retryAfter(key) {
        const decision = await limiter.peek(hashed(key));
        return decision.allowed ? 0 : decision.resetSeconds;
      },
      async hit(key) {
        const decision = await limiter.consume(hashed(key));
        return decision.allowed ? 0 : decision.resetSeconds;
      },
      reset: (key) => limiter.reset(hashed(key)),
    };
  };

  return {
    loginPerAccount: throttle('login-account', config.loginPerAccount),
    loginPerIp: throttle('login-ip', config.loginPerIp),
    signupPerIp: throttle('signup-ip', config.signupPerIp),
    registrationPerIp: throttle('registration-ip', config.registrationPerIp),
  };
}
