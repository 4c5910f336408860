import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createTestDomain, type TestDomain } from './support/domain.js';
import { aUser, rpc, startHarness, toolCall, type Harness } from './support/harness.js';

/*
 * The memory store always; the Redis store too when REDIS_URL is set (CI sets it),
 * each test with its own key prefix so runs never share counters.
 */
const redisUrl = process.env.REDIS_URL;
const stores: ['memory' | 'redis'][] = redisUrl ? [['memory'], ['redis']] : [['memory']];

let domain: TestDomain;
let redis: Redis | null = null;

beforeAll(async () => {
  domain = await createTestDomain();
  if (redisUrl) redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis?.connect();
});
afterAll(async () => {
  await redis?.quit();
  await domain.close();
});

const limits = { userPoints: 3, ipPoints: 2, windowSeconds: 60, uploadPoints: 1, uploadWindowSeconds: 600 };

describe.each(stores)('%s store', (store) => {
  const harnesses: Harness[] = [];
  const start = async (prefix = `test-${randomUUID()}`) => {
    const h = await startHarness({ domain: domain.deps, rateLimit: limits, redis: store === 'redis' ? redis : null, rateLimitPrefix: prefix });
    harnesses.push(h);
    return h;
  };
  afterEach(async () => {
    await Promise.all(harnesses.splice(0).map((h) => h.close()));
  });

  test('per user: over the limit is 429 with Retry-After, RateLimit headers and a JSON-RPC error saying when to retry', async () => {
    const h = await start();
    const user = await aUser(h.domain);
    const token = await h.tokenFor(user);
    for (let i = 0; i < 3; i += 1) {
      const ok = await rpc(h.mcpUrl, toolCall('whoami'), { token });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('ratelimit-limit')).toBe('3');
      expect(ok.headers.get('ratelimit-remaining')).toBe(String(2 - i));
    }
    const refused = await rpc(h.mcpUrl, toolCall('whoami', {}, 42), { token });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(refused.headers.get('ratelimit-policy')).toBe('3;w=60');
    expect(refused.json).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32029,
        message: `Rate limit exceeded: too many requests. Retry after ${retryAfter} seconds; space requests by a few seconds and batch operations.`,
        data: { retryAfterSeconds: retryAfter },
      },
    });

    // Another user has a budget of their own.
    const other = await rpc(h.mcpUrl, toolCall('whoami'), { token: await h.tokenFor(await aUser(h.domain)) });
    expect(other.status).toBe(200);
  });

  test('per IP without a token (bad tokens count too)', async () => {
    const h = await start();
    expect((await rpc(h.mcpUrl, { jsonrpc: '2.0', id: 1, method: 'ping' })).status).toBe(200);
    expect((await rpc(h.mcpUrl, toolCall('whoami'), { token: 'garbage' })).status).toBe(401);
    const refused = await rpc(h.mcpUrl, { jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(refused.status).toBe(429);
    expect(refused.json.error.message).toMatch(/^Rate limit exceeded: too many requests without a valid token\. Retry after \d+ seconds;/);
    // A signed-in user from the same IP is not affected.
    const user = await aUser(h.domain);
    expect((await rpc(h.mcpUrl, toolCall('whoami'), { token: await h.tokenFor(user) })).status).toBe(200);
  });

  test('starting uploads has its own, tighter limit', async () => {
    const h = await start();
    const token = await h.tokenFor(await aUser(h.domain));
    const first = await rpc(h.mcpUrl, toolCall('upload_component', { name: 'limited' }), { token });
    expect(first.status).toBe(200);
    const second = await rpc(h.mcpUrl, toolCall('upload_component', { name: 'limited-2' }, 7), { token });
    expect(second.status).toBe(429);
    expect(second.json.id).toBe(7);
    expect(second.json.error.message).toMatch(/^Rate limit exceeded: too many uploads started\. Retry after \d+ seconds;/);
    expect(second.headers.get('ratelimit-policy')).toBe('1;w=600');
    // Other tools still work.
    expect((await rpc(h.mcpUrl, toolCall('whoami'), { token })).status).toBe(200);
  });

  if (store === 'redis') {
    test('two instances share one budget through Redis', async () => {
      const prefix = `test-${randomUUID()}`;
      const a = await start(prefix);
      const b = await start(prefix);
      const user = await aUser(domain.deps);
      // Both instances trust their own test issuer; the subject is what is counted.
      const statuses: number[] = [];
      for (const h of [a, b, a, b]) statuses.push((await rpc(h.mcpUrl, toolCall('whoami'), { token: await h.tokenFor(user) })).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
    });
  }
});
