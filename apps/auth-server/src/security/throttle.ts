import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
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

const waitSeconds = (res: RateLimiterRes): number => Math.max(1, Math.ceil(res.msBeforeNext / 1000));

function throttle(name: string, attempts: number, windowSeconds: number): Throttle {
  const limiter = new RateLimiterMemory({ keyPrefix: `auth:${name}`, points: attempts, duration: windowSeconds });
  return {
    async retryAfter(key) {
      const res = await limiter.get(key);
      return res !== null && res.remainingPoints <= 0 && res.consumedPoints >= attempts ? waitSeconds(res) : 0;
    },
    async hit(key) {
      try {
        await limiter.consume(key);
        return 0;
      } catch (rejection) {
        if (rejection instanceof RateLimiterRes) return waitSeconds(rejection);
        throw rejection;
      }
    },
    async reset(key) {
      await limiter.delete(key);
    },
  };
}

/**
 * In-process counters: each instance counts on its own, so with N instances
 * behind a balancer an attacker gets up to N times the budget (see README).
 */
export function createThrottles(config: ThrottleConfig): Throttles {
  return {
    loginPerAccount: throttle('login-account', config.loginPerAccount.attempts, config.loginPerAccount.windowSeconds),
    loginPerIp: throttle('login-ip', config.loginPerIp.attempts, config.loginPerIp.windowSeconds),
    signupPerIp: throttle('signup-ip', config.signupPerIp.attempts, config.signupPerIp.windowSeconds),
    registrationPerIp: throttle('registration-ip', config.registrationPerIp.attempts, config.registrationPerIp.windowSeconds),
  };
}
