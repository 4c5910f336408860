import { createHmac, hkdfSync } from 'node:crypto';
import { createRateLimiter, type Redis } from '@cp/http-runtime/rate-limit';
import type { ThrottleConfig } from '../config.js';

/** One attempt as counted: how many the key has made in this window (this one included), and the wait when over. */
export interface Hit {
  readonly count: number;
  /** Seconds to wait when this attempt went over the limit, else 0. */
  readonly retryAfterSeconds: number;
  /** Seconds until the key's window ends (its count starts afresh). */
  readonly windowEndsInSeconds: number;
}

/** A counter of attempts per key over a fixed window. */
export interface Throttle {
  /** Seconds until `key` may try again, or 0 when it is not blocked. */
  retryAfter(key: string): Promise<number>;
  /** Counts one attempt, atomically (in memory and in Redis): parallel attempts each see their own count. */
  hit(key: string): Promise<Hit>;
  /** Gives back one attempt counted by `hit` (it turned out not to be a failure). */
  refund(key: string): Promise<void>;
  /** Forgets the key. */
  reset(key: string): Promise<void>;
}

export interface Throttles {
  readonly loginPerAccountNetwork: Throttle;
  readonly loginPerAccount: Throttle;
  readonly loginPerNetwork: Throttle;
  readonly signupPerNetwork: Throttle;
  readonly signupPerInvitation: Throttle;
  readonly registrationPerNetwork: Throttle;
  readonly deviceCodeEntryPerNetwork: Throttle;
}

/** Retry-After of a throttled request refused because the store (Redis) does not answer. */
export const STORE_UNAVAILABLE_RETRY_SECONDS = 30;

export interface ThrottleStore {
  /** Shared counters (every instance, across restarts); null: this process's memory. */
  readonly redis: Redis | null;
  /** Namespace of the keys; each throttle adds its own name (`auth-rl:login-account-network:...`). */
  readonly keyPrefix?: string;
  /**
   * A secret every instance shares (main.ts: the first cookie key). Keys are stored as
   * HMACs under a key derived from it, so the store never holds an email address or an IP.
   */
  readonly keySecret: string;
}

/** How a key is stored: an HMAC under a key derived from the shared secret (never the email, IP or code itself). */
export function keyHasher(keySecret: string): (key: string) => string {
  const hmacKey = Buffer.from(hkdfSync('sha256', keySecret, 'cp-auth-throttle', 'throttle keys v1', 32));
  return (key) => createHmac('sha256', hmacKey).update(key).digest('base64url');
}

/**
 * The throttles. With Redis the counts are shared by every instance and survive
 * restarts; if Redis stops answering, every throttled request fails with
 * RateLimitStoreError (the app answers 503) rather than counting in memory: a
 * budget that silently multiplies by the number of instances, and starts from zero,
 * is what these throttles exist to prevent (README "Throttling").
 */
export function createThrottles(config: ThrottleConfig, store: ThrottleStore): Throttles {
  const prefix = store.keyPrefix ?? 'auth-rl';
  const hashed = keyHasher(store.keySecret);

  const throttle = (name: string, { attempts, windowSeconds }: { attempts: number; windowSeconds: number }): Throttle => {
    const limiter = createRateLimiter({ keyPrefix: `${prefix}:${name}`, points: attempts, windowSeconds, redis: store.redis, onStoreFailure: 'refuse' });
    return {
      async retryAfter(key) {
        const decision = await limiter.peek(hashed(key));
        return decision.allowed ? 0 : decision.resetSeconds;
      },
      async hit(key) {
        const decision = await limiter.consume(hashed(key));
        return decision.allowed
          ? { count: attempts - decision.remaining, retryAfterSeconds: 0, windowEndsInSeconds: decision.resetSeconds }
          : { count: attempts + 1, retryAfterSeconds: decision.resetSeconds, windowEndsInSeconds: decision.resetSeconds };
      },
      refund: (key) => limiter.refund(hashed(key)),
      reset: (key) => limiter.reset(hashed(key)),
    };
  };

  return {
    loginPerAccountNetwork: throttle('login-account-network', config.loginPerAccountNetwork),
    loginPerAccount: throttle('login-account', config.loginPerAccount),
    loginPerNetwork: throttle('login-network', config.loginPerNetwork),
    signupPerNetwork: throttle('signup-network', config.signupPerNetwork),
    signupPerInvitation: throttle('signup-invitation', config.signupPerInvitation),
    registrationPerNetwork: throttle('registration-network', config.registrationPerNetwork),
    deviceCodeEntryPerNetwork: throttle('device-code-network', config.deviceCodeEntryPerNetwork),
  };
}
