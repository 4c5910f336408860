import type { Logger } from '@cp/http-runtime';
import type { Redis } from '@cp/http-runtime/rate-limit';
import { LRUCache } from 'lru-cache';
import type { DeviceFlowConfig } from '../config.js';
import { keyHasher, type ThrottleStore } from './throttle.js';

/** A poll of a device code: allowed, or too soon (`slow_down`) with the code's new interval. */
export type PollDecision = { readonly allowed: true } | { readonly allowed: false; readonly intervalSeconds: number };

/**
 * RFC 8628 section 3.5 for the token endpoint: a device code polled sooner than its
 * interval after its previous poll answers `slow_down`, and that code's interval grows
 * by `slowDownSeconds` for this and every later poll. The first poll of a code is never
 * too soon. One decision per poll, atomically: of N parallel polls, one is allowed.
 */
export interface DevicePolls {
  poll(deviceCode: string): Promise<PollDecision>;
}

export interface DevicePollsDeps {
  readonly config: DeviceFlowConfig;
  readonly store: ThrottleStore;
  readonly log: Logger;
  /** Milliseconds; tests of the memory store pass their own. */
  readonly now?: () => number;
}

/**
 * With Redis the state is shared by every instance (keys expire with the code); if Redis
 * fails, this instance decides from its memory until it answers again. Unlike the sign-in
 * throttles this does not fail closed: it paces a client that already holds a secret
 * device_code, it guards no password, and refusing would stall every login.
 */
export function createDevicePolls(deps: DevicePollsDeps): DevicePolls {
  const memory = memoryPolls(deps.config, deps.now ?? Date.now);
  const { redis } = deps.store;
  if (redis === null) return memory;
  const shared = redisPolls(deps.config, redis, `${deps.store.keyPrefix ?? 'auth-rl'}:device-poll`, keyHasher(deps.store.keySecret));
  let failing = false;
  return {
    async poll(deviceCode) {
      try {
        const decision = await shared.poll(deviceCode);
        if (failing) deps.log.info('device polling state: Redis answers again');
        failing = false;
        return decision;
      } catch (error) {
        if (!failing) deps.log.warn({ err: error }, 'device polling state: Redis unavailable, pacing polls in this instance only');
        failing = true;
        return memory.poll(deviceCode);
      }
    },
  };
}

const intervalAt = (config: DeviceFlowConfig, slowDowns: number): number => config.intervalSeconds + slowDowns * config.slowDownSeconds;

/** One process: each code's last poll and slow-down count, for at most `maxTrackedCodes` codes (least recently polled go first). */
function memoryPolls(config: DeviceFlowConfig, now: () => number): DevicePolls {
  const codes = new LRUCache<string, { lastPollAt: number; slowDowns: number; expiresAt: number }>({ max: config.maxTrackedCodes });
  return {
    async poll(deviceCode) {
      const at = now();
      const seen = codes.get(deviceCode);
      const known = seen !== undefined && seen.expiresAt > at ? seen : undefined;
      const expiresAt = known?.expiresAt ?? at + config.codeLifetimeSeconds * 1000;
      if (known !== undefined && at < known.lastPollAt + intervalAt(config, known.slowDowns) * 1000) {
        const slowDowns = known.slowDowns + 1;
        codes.set(deviceCode, { lastPollAt: at, slowDowns, expiresAt });
        return { allowed: false, intervalSeconds: intervalAt(config, slowDowns) };
      }
      codes.set(deviceCode, { lastPollAt: at, slowDowns: known?.slowDowns ?? 0, expiresAt });
      return { allowed: true };
    },
  };
}

/**
 * Two keys per code (its HMAC: Redis never holds a device_code): `<prefix>:<hash>` exists
 * while the code is inside its interval (SET NX decides atomically which poll opens the
 * next interval), `<prefix>-slow:<hash>` counts its slow_downs for the code's lifetime.
 * A refused poll restarts the interval, at its new length, from itself.
 */
function redisPolls(config: DeviceFlowConfig, redis: Redis, prefix: string, hashed: (key: string) => string): DevicePolls {
  return {
    async poll(deviceCode) {
      const hash = hashed(deviceCode);
      const gate = `${prefix}:${hash}`;
      const counter = `${prefix}-slow:${hash}`;
      const slowDowns = Number((await redis.get(counter)) ?? 0);
      if ((await redis.set(gate, '1', 'PX', intervalAt(config, slowDowns) * 1000, 'NX')) === 'OK') return { allowed: true };
      const counted = await redis.multi().incr(counter).pexpire(counter, config.codeLifetimeSeconds * 1000).exec();
      const total = Number(counted?.[0]?.[1] ?? slowDowns + 1);
      const intervalSeconds = intervalAt(config, total);
      await redis.set(gate, '1', 'PX', intervalSeconds * 1000);
      return { allowed: false, intervalSeconds };
    },
  };
}
