import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { connectRedis, createRateLimiter, RateLimitStoreError, REDIS_COMMAND_TIMEOUT_MS, REDIS_HUNG_PAUSE_MS, type RateLimiter, type StoreFailurePolicy } from '../src/rate-limit/index.js';
import { startFaultProxy, type FaultProxy } from '../src/testing/index.js';
import { closedPort } from '../../storage/test/support/fake-servers.js';

/*
 * The limiter on memory always; on Redis too when REDIS_URL is set (CI sets it).
 * Each test uses a key prefix of its own, so runs never share counters.
 */
const REDIS_URL = process.env.REDIS_URL;
const withRedis = REDIS_URL ? describe : describe.skip;

const aPrefix = () => `test-${randomUUID()}`;


/** A client that never connected: what a limiter sees while Redis is down. */
const unreachableClient = async () => new Redis(`redis://127.0.0.1:${await closedPort()}`, { lazyConnect: true, enableOfflineQueue: false });

async function spend(limiter: RateLimiter, key: string, times: number): Promise<boolean[]> {
  const allowed: boolean[] = [];
  for (let i = 0; i < times; i += 1) allowed.push((await limiter.consume(key)).allowed);
  return allowed;
}

/**
 * Two parallel callers each take 15 of a budget of 20 (a batch of 15 messages each):
 * exactly one is admitted, and the budget says so.
 */
async function atomicRace(limiter: RateLimiter): Promise<{ admitted: number; remaining: number }> {
  const decisions = await Promise.all([limiter.consume('k', 15), limiter.consume('k', 15)]);
  return { admitted: decisions.filter((decision) => decision.allowed).length, remaining: decisions.find((decision) => decision.allowed)?.remaining ?? -1 };
}

describe('memory store', () => {
  test('consume counts until the budget is spent, then refuses with the seconds to wait', async () => {
    const limiter = createRateLimiter({ keyPrefix: aPrefix(), points: 2, windowSeconds: 60 });
    expect(await limiter.consume('k')).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 60, windowSeconds: 60 });
    expect((await limiter.consume('k')).allowed).toBe(true);
    const refused = await limiter.consume('k');
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.resetSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.resetSeconds).toBeLessThanOrEqual(60);
    expect((await limiter.consume('other')).allowed).toBe(true);
  });

  test('consume(key, points) takes them all or refuses: parallel callers never pass more than the budget', async () => {
    const limiter = createRateLimiter({ keyPrefix: aPrefix(), points: 20, windowSeconds: 60 });
    expect(await atomicRace(limiter)).toEqual({ admitted: 1, remaining: 5 });
    expect((await limiter.consume('k', 6)).allowed).toBe(false);
    await expect(limiter.consume('k', 0)).rejects.toBeInstanceOf(RangeError);
    await expect(limiter.consume('k', 1.5)).rejects.toBeInstanceOf(RangeError);
  });

  test('peek does not count; reset forgets the key', async () => {
    const limiter = createRateLimiter({ keyPrefix: aPrefix(), points: 1, windowSeconds: 60 });
    expect(await limiter.peek('k')).toEqual({ allowed: true, limit: 1, remaining: 1, resetSeconds: 0, windowSeconds: 60 });
    expect((await limiter.peek('k')).allowed).toBe(true);
    await limiter.consume('k');
    expect(await limiter.peek('k')).toMatchObject({ allowed: false, remaining: 0 });
    await limiter.reset('k');
    expect((await limiter.peek('k')).allowed).toBe(true);
  });

  test('refund gives one consumed point back', async () => {
    const limiter = createRateLimiter({ keyPrefix: aPrefix(), points: 2, windowSeconds: 60 });
    expect(await spend(limiter, 'k', 2)).toEqual([true, true]);
    await limiter.refund('k');
    expect(await spend(limiter, 'k', 2)).toEqual([true, false]);
  });

  test('parallel consumes never allow more than the budget', async () => {
    const limiter = createRateLimiter({ keyPrefix: aPrefix(), points: 3, windowSeconds: 60 });
    const decisions = await Promise.all(Array.from({ length: 40 }, () => limiter.consume('k')));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(3);
  });
});

describe('a Redis store that does not answer (no Redis needed)', () => {
  test('refuse: every operation throws RateLimitStoreError naming the limiter', async () => {
    const redis = await unreachableClient();
    const limiter = createRateLimiter({ keyPrefix: 'auth-rl:login-account', points: 5, windowSeconds: 60, redis, onStoreFailure: 'refuse' });
    for (const operation of [() => limiter.consume('k'), () => limiter.peek('k'), () => limiter.refund('k'), () => limiter.reset('k')]) {
      const error = await operation().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(RateLimitStoreError);
      expect((error as Error).message).toMatch(/^rate-limit store unavailable for auth-rl:login-account: /);
    }
    redis.disconnect();
  });

  test('memory (the default): counts in this process instead', async () => {
    const redis = await unreachableClient();
    const limiter = createRateLimiter({ keyPrefix: aPrefix(), points: 2, windowSeconds: 60, redis });
    expect(await spend(limiter, 'k', 3)).toEqual([true, true, false]);
    redis.disconnect();
  });
});

describe('connectRedis', () => {
  test('an unreachable server: a message naming it and the setting, saying what to start, without the password', async () => {
    const port = await closedPort();
    const error = (await connectRedis(`redis://:s3cret-password@127.0.0.1:${port}`, { setting: 'REDIS_URL' }).then(
      () => null,
      (caught: unknown) => caught,
    )) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toMatch(new RegExp(`^Cannot reach Redis at 127\\.0\\.0\\.1:${port} \\(REDIS_URL\\): .*ECONNREFUSED.*\\. Start Redis there`));
    expect(error.message).toContain('or unset REDIS_URL');
    expect(error.message).not.toContain('s3cret-password');
  });
});

withRedis('Redis store (REDIS_URL)', () => {
  let a: Redis;
  let b: Redis;
  beforeAll(async () => {
    [a, b] = await Promise.all([connectRedis(REDIS_URL!), connectRedis(REDIS_URL!)]);
  });
  afterAll(async () => {
    await Promise.all([a?.quit(), b?.quit()]);
  });

  test('two limiters (two connections, as two instances) share one budget; peek and reset see it too', async () => {
    const keyPrefix = aPrefix();
    const first = createRateLimiter({ keyPrefix, points: 3, windowSeconds: 60, redis: a, onStoreFailure: 'refuse' });
    const second = createRateLimiter({ keyPrefix, points: 3, windowSeconds: 60, redis: b, onStoreFailure: 'refuse' });
    expect(await spend(first, 'k', 2)).toEqual([true, true]);
    expect((await second.peek('k')).remaining).toBe(1);
    expect(await spend(second, 'k', 2)).toEqual([true, false]);
    expect((await first.peek('k')).allowed).toBe(false);
    await second.reset('k');
    expect((await first.consume('k')).allowed).toBe(true);
  });

  test('parallel consumes from two connections never allow more than the budget; refund gives a point back', async () => {
    const keyPrefix = aPrefix();
    const first = createRateLimiter({ keyPrefix, points: 3, windowSeconds: 60, redis: a, onStoreFailure: 'refuse' });
    const second = createRateLimiter({ keyPrefix, points: 3, windowSeconds: 60, redis: b, onStoreFailure: 'refuse' });
    const decisions = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? first : second).consume('k')));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(3);
    await second.reset('k');
    expect(await spend(first, 'k', 3)).toEqual([true, true, true]);
    await second.refund('k');
    expect(await spend(first, 'k', 2)).toEqual([true, false]);
    await a.del(`${keyPrefix}:k`);
  });

  test('consume(key, points) is atomic across two connections (as two instances)', async () => {
    const keyPrefix = aPrefix();
    const first = createRateLimiter({ keyPrefix, points: 20, windowSeconds: 60, redis: a, onStoreFailure: 'refuse' });
    const second = createRateLimiter({ keyPrefix, points: 20, windowSeconds: 60, redis: b, onStoreFailure: 'refuse' });
    const decisions = await Promise.all([first.consume('k', 15), second.consume('k', 15)]);
    expect(decisions.map((decision) => decision.allowed).sort()).toEqual([false, true]);
    expect((await first.peek('k')).allowed).toBe(false);
    await first.reset('k');
  });

  test('keys are <keyPrefix>:<key> with the window as their expiry; prefixes keep limiters apart', async () => {
    const keyPrefix = aPrefix();
    const one = createRateLimiter({ keyPrefix: `${keyPrefix}:one`, points: 1, windowSeconds: 90, redis: a });
    const two = createRateLimiter({ keyPrefix: `${keyPrefix}:two`, points: 1, windowSeconds: 90, redis: a });
    expect((await one.consume('k')).allowed).toBe(true);
    expect((await two.consume('k')).allowed).toBe(true);
    expect((await a.keys(`${keyPrefix}:*`)).sort()).toEqual([`${keyPrefix}:one:k`, `${keyPrefix}:two:k`]);
    const ttl = await a.ttl(`${keyPrefix}:one:k`);
    expect(ttl).toBeGreaterThan(80);
    expect(ttl).toBeLessThanOrEqual(90);
    await a.del(`${keyPrefix}:one:k`, `${keyPrefix}:two:k`);
  });
});

/**
 * Redis cut under a running limiter through the fault proxy, both ways: refused (the
 * server is down) and hung (a partition). Each policy answers within about a second, never
 * waits on a hung Redis, and counts in Redis again once it is back.
 */
withRedis('Redis cut while running (REDIS_URL, through the fault proxy)', () => {
  /** About a second: the command timeout plus scheduling slack on a busy machine. */
  const BOUND_MS = REDIS_COMMAND_TIMEOUT_MS + 600;
  let proxy: FaultProxy;
  let client: Redis;
  beforeEach(async () => {
    const target = new URL(REDIS_URL!);
    proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 6379) });
    const viaProxy = new URL(REDIS_URL!);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    client = await connectRedis(viaProxy.href);
  });
  afterEach(async () => {
    client.disconnect();
    await proxy.close();
  });

  const timed = async <T>(run: () => Promise<T>): Promise<{ ms: number; outcome: T | Error }> => {
    const started = performance.now();
    const outcome = await run().catch((error: unknown) => error as Error);
    return { ms: performance.now() - started, outcome };
  };

  const cuts: ['refused' | 'hung', (p: FaultProxy) => Promise<void> | void][] = [
    ['refused', (p) => p.refuse()],
    ['hung', (p) => p.hang()],
  ];
  const policies: StoreFailurePolicy[] = ['refuse', 'memory'];

  describe.each(cuts)('Redis %s', (name, cut) => {
    test.each(policies)('onStoreFailure %s: every call answers within about a second; counting in Redis resumes once it is back', async (policy) => {
      const keyPrefix = aPrefix();
      const limiter = createRateLimiter({ keyPrefix, points: 3, windowSeconds: 60, redis: client, onStoreFailure: policy });
      expect((await limiter.consume('k')).allowed).toBe(true);

      await cut(proxy);
      for (let i = 0; i < 3; i += 1) {
        const { ms, outcome } = await timed(() => limiter.consume('k'));
        expect(ms).toBeLessThan(BOUND_MS);
        // Hung: the first call waits out the command timeout; the next skip Redis for a pause.
        if (i > 0) expect(ms).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS);
        if (policy === 'refuse') {
          expect(outcome).toBeInstanceOf(RateLimitStoreError);
          expect((outcome as Error).message).toMatch(new RegExp(`^rate-limit store unavailable for ${keyPrefix}: `));
        } else {
          // The insurance counter: this process's memory, its own fresh budget.
          expect(outcome).toMatchObject({ allowed: true, remaining: 2 - i });
        }
      }
      if (policy === 'refuse') {
        const { ms, outcome } = await timed(() => limiter.peek('k'));
        expect(ms).toBeLessThan(BOUND_MS);
        expect(outcome).toBeInstanceOf(RateLimitStoreError);
      }

      await proxy.restore();
      await waitFor(async () => (await client.ping().catch(() => null)) === 'PONG');
      // After a hang, the limiters try Redis again once their pause is over.
      if (name === 'hung') await new Promise((resolve) => setTimeout(resolve, REDIS_HUNG_PAUSE_MS));
      const after = await limiter.consume('k');
      if (name === 'refused') {
        // Redis still holds the one point taken before the cut, and only it.
        expect(after.remaining).toBe(1);
      } else {
        // Commands that timed out during the hang were already on the wire: they may land once it
        // resumes. Counts can only come out higher, never lower (the safe side for a limit).
        expect(after.remaining).toBeLessThanOrEqual(1);
      }
      await client.del(`${keyPrefix}:k`);
    });
  });
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
