import { randomUUID } from 'node:crypto';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { Redis } from 'ioredis';
import { createRedisClient, REDIS_COMMAND_TIMEOUT_MS, REDIS_HUNG_PAUSE_MS } from '@cp/http-runtime/rate-limit';
import { startFaultProxy } from '@cp/http-runtime/testing';
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
  const start = async (prefix = `test-${randomUUID()}`, rateLimit: Partial<typeof limits> = {}) => {
    const h = await startHarness({ domain: domain.deps, rateLimit: { ...limits, ...rateLimit }, redis: store === 'redis' ? redis : null, rateLimitPrefix: prefix });
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

  test('without a token, IPv6 clients of one /64 share the IP budget; another /64 has its own', async () => {
    // Behind a trusted proxy (loopback), as in production: the forwarded address is the client's.
    const h = await startHarness({
      domain: domain.deps,
      rateLimit: limits,
      redis: store === 'redis' ? redis : null,
      rateLimitPrefix: `test-${randomUUID()}`,
      config: { trustProxy: 'loopback' },
    });
    harnesses.push(h);
    const ping = (address: string) => rpc(h.mcpUrl, { jsonrpc: '2.0', id: 1, method: 'ping' }, { headers: { 'x-forwarded-for': address } });
    expect((await ping('2001:db8:1:2::1')).status).toBe(200);
    expect((await ping('2001:db8:1:2:ffff:ffff:ffff:fffe')).status).toBe(200);
    expect((await ping('2001:0db8:0001:0002::abcd')).status).toBe(429);
    expect((await ping('2001:db8:1:3::1')).status).toBe(200);
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

  describe('batches and parallel requests: every message pays', () => {
    const UPLOADS = 20;
    const startWide = () => start(undefined, { userPoints: 100, ipPoints: 100, uploadPoints: UPLOADS });
    const uploads = (count: number, prefix: string) => Array.from({ length: count }, (_, i) => toolCall('upload_component', { name: `${prefix}-${i}` }, i + 1));
    const OLD = { 'mcp-protocol-version': '2025-03-26' };

    test('two parallel batches of 15 upload_component calls (protocol 2025-03-26) start no more sessions than the upload budget', async () => {
      const h = await startWide();
      const user = await aUser(h.domain);
      const token = await h.tokenFor(user);
      const [a, b] = await Promise.all([rpc(h.mcpUrl, uploads(15, 'batch-a'), { token, headers: OLD }), rpc(h.mcpUrl, uploads(15, 'batch-b'), { token, headers: OLD })]);
      const sessions = await domain.uploadSessionsOf(user.id);
      expect(sessions).toBeLessThanOrEqual(UPLOADS);
      // One batch fits the budget, the other does not: it runs none of its calls.
      expect([a.status, b.status].sort()).toEqual([200, 429]);
      const [admitted, refused] = a.status === 200 ? [a, b] : [b, a];
      const results = admitted.json as { result?: { isError?: boolean } }[];
      expect(results).toHaveLength(15);
      expect(results.every((response) => response.result !== undefined && response.result.isError === undefined)).toBe(true);
      expect(sessions).toBe(15);
      expect(refused.headers.get('retry-after')).not.toBeNull();
      expect(refused.json).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32029, data: { retryAfterSeconds: expect.any(Number) } } });
      expect(refused.json.error.message).toMatch(/^Rate limit exceeded: too many uploads started\. Retry after \d+ seconds;/);
    });

    test('a batch the budget cannot cover runs none of its calls', async () => {
      const h = await startWide();
      const user = await aUser(h.domain);
      const token = await h.tokenFor(user);
      expect((await rpc(h.mcpUrl, toolCall('upload_component', { name: 'first' }), { token })).status).toBe(200);
      const refused = await rpc(h.mcpUrl, uploads(UPLOADS, 'too-many'), { token, headers: OLD });
      expect(refused.status).toBe(429);
      expect(await domain.uploadSessionsOf(user.id)).toBe(1);
    });

    test('the request budget pays one point per message of a batch', async () => {
      const h = await start(undefined, { userPoints: 10 });
      const token = await h.tokenFor(await aUser(h.domain));
      const whoamis = (count: number) => Array.from({ length: count }, (_, i) => toolCall('whoami', {}, i + 1));
      const first = await rpc(h.mcpUrl, whoamis(4), { token, headers: OLD });
      expect(first.status).toBe(200);
      expect(first.headers.get('ratelimit-remaining')).toBe('6');
      // Two parallel batches of 4 against the 6 points left: one passes, one is refused whole.
      const [a, b] = await Promise.all([rpc(h.mcpUrl, whoamis(4), { token, headers: OLD }), rpc(h.mcpUrl, whoamis(4), { token, headers: OLD })]);
      expect([a.status, b.status].sort()).toEqual([200, 429]);
      const refused = a.status === 429 ? a : b;
      expect(refused.json.error.message).toMatch(/^Rate limit exceeded: too many requests\. Retry after \d+ seconds;/);
    });

    test('without a token, the IP pays one point per message of a batch', async () => {
      const h = await start(undefined, { ipPoints: 2 });
      const pings = [1, 2, 3].map((id) => ({ jsonrpc: '2.0', id, method: 'ping' }));
      const refused = await rpc(h.mcpUrl, pings, { headers: OLD });
      expect(refused.status).toBe(429);
      expect(refused.json.error.message).toMatch(/^Rate limit exceeded: too many requests without a valid token\./);
    });

    test('a batch with MCP-Protocol-Version 2025-06-18 or later is refused with 400, and starts nothing', async () => {
      const h = await startWide();
      const user = await aUser(h.domain);
      const token = await h.tokenFor(user);
      const versions = SUPPORTED_PROTOCOL_VERSIONS.filter((version) => version >= '2025-06-18');
      expect(versions).toContain('2025-06-18');
      for (const version of versions) {
        const refused = await rpc(h.mcpUrl, uploads(2, `new-${version}`), { token, headers: { 'mcp-protocol-version': version } });
        expect(refused.status).toBe(400);
        expect(refused.json).toEqual({
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -32600,
            message: `Invalid Request: JSON-RPC batching was removed in MCP 2025-06-18 and this request speaks ${version} (its MCP-Protocol-Version header). Send one message per request.`,
          },
        });
        // One message per request is answered.
        const single = await rpc(h.mcpUrl, toolCall('whoami'), { token, headers: { 'mcp-protocol-version': version } });
        expect(single.status).toBe(200);
      }
      expect(await domain.uploadSessionsOf(user.id)).toBe(0);
    });

    test('Promise.all of N single upload_component calls starts no more sessions than the budget', async () => {
      const h = await startWide();
      const user = await aUser(h.domain);
      const token = await h.tokenFor(user);
      const responses = await Promise.all(
        Array.from({ length: UPLOADS + 10 }, (_, i) => rpc(h.mcpUrl, toolCall('upload_component', { name: `parallel-${i}` }), { token, headers: { 'mcp-protocol-version': '2025-06-18' } })),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(UPLOADS);
      expect(statuses.filter((status) => status === 429)).toHaveLength(10);
      expect(await domain.uploadSessionsOf(user.id)).toBe(UPLOADS);
    });

    test('Promise.all of N single requests admits no more than the request budget', async () => {
      const h = await start();
      const token = await h.tokenFor(await aUser(h.domain));
      const responses = await Promise.all(Array.from({ length: 12 }, () => rpc(h.mcpUrl, toolCall('whoami'), { token })));
      expect(responses.filter((response) => response.status === 200)).toHaveLength(limits.userPoints);
      expect(responses.filter((response) => response.status === 429)).toHaveLength(12 - limits.userPoints);
    });
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

  if (store === 'redis') {
    /** Redis cut under a running server through the fault proxy: the server down (refused), or a partition (hung). */
    describe.each([['refused'], ['hung']] as const)('Redis %s while running', (fault) => {
      test('fails open to per-instance memory counters: calls answer 200 within about a second, the budget still holds per instance, and Redis counts again once back', async () => {
        const target = new URL(redisUrl!);
        const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 6379) });
        const viaProxy = new URL(redisUrl!);
        viaProxy.hostname = '127.0.0.1';
        viaProxy.port = String(proxy.port);
        // The client serve.ts makes (bounded waits, no offline queue).
        const client = createRedisClient(viaProxy.href);
        try {
          const prefix = `test-${randomUUID()}`;
          const h = await startHarness({ domain: domain.deps, rateLimit: limits, redis: client, rateLimitPrefix: prefix });
          harnesses.push(h);
          const token = await h.tokenFor(await aUser(h.domain));
          expect((await rpc(h.mcpUrl, toolCall('whoami'), { token })).status).toBe(200);

          if (fault === 'refused') await proxy.refuse();
          else proxy.hang();
          const during: { status: number; ms: number }[] = [];
          for (let i = 0; i < limits.userPoints + 1; i += 1) {
            const started = performance.now();
            const response = await rpc(h.mcpUrl, toolCall('whoami'), { token });
            during.push({ status: response.status, ms: performance.now() - started });
          }
          // The insurance counter is this instance's memory: a fresh budget, still enforced.
          expect(during.map((each) => each.status)).toEqual([...Array.from({ length: limits.userPoints }, () => 200), 429]);
          for (const { ms } of during) expect(ms).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS + 600);
          // Hung: after the first timeout, the calls do not wait on Redis again during its pause.
          if (fault === 'hung') for (const { ms } of during.slice(1)) expect(ms).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS);

          await proxy.restore();
          await waitFor(async () => (await client.ping().catch(() => null)) === 'PONG');
          if (fault === 'hung') await new Promise((resolve) => setTimeout(resolve, REDIS_HUNG_PAUSE_MS));
          // Back on Redis, which holds the call made before the cut (and any hung ones that landed late).
          const other = await rpc(h.mcpUrl, toolCall('whoami'), { token: await h.tokenFor(await aUser(h.domain)) });
          expect(other.status).toBe(200);
          expect(Number(other.headers.get('ratelimit-remaining'))).toBe(limits.userPoints - 1);
          expect((await client.keys(`${prefix}:user:*`)).length).toBe(2);
        } finally {
          client.disconnect();
          await proxy.close();
        }
      });
    });
  }
});

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
