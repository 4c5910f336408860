import { randomUUID } from 'node:crypto';
import { silentLogger } from '@cp/http-runtime';
import { connectRedis, createRedisClient, type Redis } from '@cp/http-runtime/rate-limit';
import { defaultDeviceFlow } from '../src/config.js';
import { createDevicePolls, type DevicePolls } from '../src/security/device-polls.js';
import { redisUrl } from './support/harness.js';

/*
 * The device codes' polling pace (slow_down, RFC 8628 section 3.5) on its own: in memory
 * on an injected clock (no waiting), and in Redis (needs REDIS_URL; skipped without it)
 * under parallel polls and from two instances.
 */

const REDIS = Boolean(process.env.REDIS_URL);
const withRedis = REDIS ? describe : describe.skip;
const config = { ...defaultDeviceFlow, maxTrackedCodes: 3 };

describe('in memory', () => {
  let now = 0;
  let polls: DevicePolls;
  beforeEach(() => {
    now = 1_000_000;
    polls = createDevicePolls({ config, store: { redis: null, keySecret: 'k' }, log: silentLogger(), now: () => now });
  });

  test('the first poll is allowed; one sooner than the interval is slow_down, and each adds 5 s from itself', async () => {
    await expect(polls.poll('code')).resolves.toEqual({ allowed: true });
    now += 4_999;
    await expect(polls.poll('code')).resolves.toEqual({ allowed: false, intervalSeconds: 10 });
    now += 9_999;
    await expect(polls.poll('code')).resolves.toEqual({ allowed: false, intervalSeconds: 15 });
    now += 15_000;
    await expect(polls.poll('code')).resolves.toEqual({ allowed: true });
    // The grown interval stays for every later poll.
    now += 14_999;
    await expect(polls.poll('code')).resolves.toEqual({ allowed: false, intervalSeconds: 20 });
  });

  test('a poll a full interval later is allowed, and codes are paced apart', async () => {
    await expect(polls.poll('a')).resolves.toEqual({ allowed: true });
    await expect(polls.poll('b')).resolves.toEqual({ allowed: true });
    now += 5_000;
    await expect(polls.poll('a')).resolves.toEqual({ allowed: true });
  });

  test('Promise.all of 20 polls of one code: one allowed', async () => {
    const decisions = await Promise.all(Array.from({ length: 20 }, () => polls.poll('code')));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(1);
  });

  test('bounded: at most maxTrackedCodes codes are remembered, the least recently polled go first', async () => {
    for (const code of ['a', 'b', 'c', 'd']) await polls.poll(code);
    // "a" was forgotten (a fourth code came in): its next poll counts as a first one.
    await expect(polls.poll('a')).resolves.toEqual({ allowed: true });
    await expect(polls.poll('d')).resolves.toEqual({ allowed: false, intervalSeconds: 10 });
  });

  test('a code is forgotten once its lifetime is over', async () => {
    await polls.poll('code');
    await polls.poll('code');
    now += config.codeLifetimeSeconds * 1000;
    await expect(polls.poll('code')).resolves.toEqual({ allowed: true });
    await expect(polls.poll('code')).resolves.toEqual({ allowed: false, intervalSeconds: 10 });
  });
});

withRedis('in Redis (needs REDIS_URL; skipped without it)', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = await connectRedis(redisUrl());
  });
  afterAll(() => redis?.quit());
  const shared = (keyPrefix: string) => createDevicePolls({ config, store: { redis, keyPrefix, keySecret: 'k' }, log: silentLogger() });

  test('two instances, Promise.all of 20 polls of one code across them: one allowed, and the slow-downs add up', async () => {
    const keyPrefix = `device-polls-test-${randomUUID()}`;
    const [one, two] = [shared(keyPrefix), shared(keyPrefix)];
    const decisions = await Promise.all(Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? one : two).poll('code')));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(1);
    const intervals = decisions.flatMap((decision) => (decision.allowed ? [] : [decision.intervalSeconds])).sort((a, b) => a - b);
    expect(intervals).toEqual(Array.from({ length: 19 }, (_, index) => 5 + (index + 1) * 5));
  });

  test('Redis holds neither the device code nor anything without an expiry', async () => {
    const keyPrefix = `device-polls-test-${randomUUID()}`;
    const polls = shared(keyPrefix);
    await polls.poll('the-secret-device-code');
    await polls.poll('the-secret-device-code');
    const keys = await redis.keys(`${keyPrefix}*`);
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      expect(key).not.toContain('the-secret-device-code');
      expect(await redis.pttl(key)).toBeGreaterThan(0);
    }
  });
});

test('Redis unreachable: the instance paces polls from its memory (no refusal: pacing guards no password)', async () => {
  const down = createRedisClient('redis://127.0.0.1:1', { lazyConnect: true });
  const polls = createDevicePolls({ config, store: { redis: down, keySecret: 'k' }, log: silentLogger() });
  await expect(polls.poll('code')).resolves.toEqual({ allowed: true });
  await expect(polls.poll('code')).resolves.toEqual({ allowed: false, intervalSeconds: 10 });
  down.disconnect();
});
