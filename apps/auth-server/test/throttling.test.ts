import { randomUUID } from 'node:crypto';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInMemoryCredentials, createInMemoryOidcStorage } from '@cp/domain/testing';
import { connectRedis, RateLimitStoreError, REDIS_COMMAND_TIMEOUT_MS, REDIS_HUNG_PAUSE_MS, type Redis } from '@cp/http-runtime/rate-limit';
import type { ThrottleConfig } from '../src/config.js';
import { parseEnv } from '../src/env.js';
import { silentLogger } from '@cp/http-runtime';
import type { Throttle, Throttles } from '../src/security/throttle.js';
import { serveAuth } from '../src/serve.js';
import { FormBrowser, type Page } from './support/form-browser.js';
import { aUser, PASSWORD } from './support/flow.js';
import { PASSWORD_COST } from '../src/accounts/passwords.js';
import { memoryDomain, redisUrl, startAuthServer, type AuthHarness, type HarnessOptions } from './support/harness.js';
import { aPublicClient, authorizeUrl, pkce, register } from './support/oauth-client.js';
import { startFaultProxy } from '@cp/http-runtime/testing';
import { closedPort } from '../../../packages/storage/test/support/fake-servers.js';

/*
 * The throttles (README "Throttling") on the memory store always, and on Redis too
 * when REDIS_URL is set (CI runs the suite once with it and once without). Tests
 * that need Redis say so in their name and are skipped without it.
 */
const REDIS = Boolean(process.env.REDIS_URL);
const stores: ('memory' | 'redis')[] = REDIS ? ['memory', 'redis'] : ['memory'];
const withRedis = REDIS ? describe : describe.skip;

const limits: ThrottleConfig = {
  loginPerAccountNetwork: { attempts: 3, windowSeconds: 900 },
  loginPerAccount: { attempts: 5, windowSeconds: 86400 },
  loginPerNetwork: { attempts: 6, windowSeconds: 3600 },
  signupPerNetwork: { attempts: 2, windowSeconds: 3600 },
  signupPerInvitation: { attempts: 1, windowSeconds: 86400 },
  registrationPerNetwork: { attempts: 2, windowSeconds: 3600 },
  deviceCodeEntryPerNetwork: { attempts: 3, windowSeconds: 900 },
};

const harnesses: AuthHarness[] = [];
const start = async (options: HarnessOptions = {}): Promise<AuthHarness> => {
  const harness = await startAuthServer({ config: { throttle: limits }, ...options });
  harnesses.push(harness);
  return harness;
};
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((harness) => harness.close()));
});

/** One sign-in on /login, as a new browser; the page it ends on (200: /account). */
async function signInOnce(auth: AuthHarness, email: string, password: string): Promise<Page> {
  const browser = new FormBrowser();
  return browser.submit(await browser.open(`${auth.issuer}/login`), { email, password });
}

/** The sign-in form of /login, opened by a new browser behind the proxy the app trusts, as a client at `address`. */
async function loginFormFrom(auth: AuthHarness, address: string): Promise<{ browser: FormBrowser; page: Page }> {
  const browser = new FormBrowser({ headers: { 'x-forwarded-for': address } });
  return { browser, page: await browser.open(`${auth.issuer}/login`) };
}

async function signInFrom(auth: AuthHarness, address: string, email: string, password: string): Promise<Page> {
  const { browser, page } = await loginFormFrom(auth, address);
  return browser.submit(page, { email, password });
}

async function signUpOnce(auth: AuthHarness, address?: string): Promise<Page> {
  const browser = new FormBrowser(address === undefined ? {} : { headers: { 'x-forwarded-for': address } });
  return browser.submit(await browser.open(`${auth.issuer}/signup`), { email: `new-${randomUUID()}@example.com`, password: PASSWORD });
}

const CLIENT = { client_name: 'Throttle test', redirect_uris: ['http://127.0.0.1:33418/'], token_endpoint_auth_method: 'none' };

const statuses = async (count: number, attempt: () => Promise<{ status: number }>): Promise<number[]> => {
  const result: number[] = [];
  for (let i = 0; i < count; i += 1) result.push((await attempt()).status);
  return result;
};

const registerFrom = async (auth: AuthHarness, address: string): Promise<number> =>
  (await fetch(`${auth.issuer}/register`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': address }, body: JSON.stringify(CLIENT) })).status;

const count = (values: number[], value: number): number => values.filter((each) => each === value).length;

/** Behind a proxy on loopback: the tests choose each request's client address with X-Forwarded-For. */
const behindProxy = { config: { throttle: limits, trustProxy: 'loopback' } } as const;

describe.each(stores)('%s store', (store) => {
  const startOn = (options: HarnessOptions = {}) => start({ throttleStore: store, ...options });

  test('40 parallel wrong passwords from one network: no more are checked than the per-(account, network) limit; the owner signs in from another network; the attacker\'s network stays refused', async () => {
    // At the production cost: a slow check is what would let parallel guesses through an uncounted window.
    const auth = await startOn({ ...behindProxy, passwordCost: PASSWORD_COST });
    const user = await aUser(auth, undefined, PASSWORD_COST);
    const attacker = '203.0.113.7';
    const forms = await Promise.all(Array.from({ length: 40 }, () => loginFormFrom(auth, attacker)));
    const guesses = await Promise.all(forms.map(({ browser, page }, i) => browser.submit(page, { email: user.email, password: `guess-${i}` })));
    const codes = guesses.map((page) => page.status);
    expect(count(codes, 401) + count(codes, 429)).toBe(40);
    expect(count(codes, 401)).toBeGreaterThan(0);
    expect(count(codes, 401)).toBeLessThanOrEqual(limits.loginPerAccountNetwork.attempts);
    const refused = guesses.find((page) => page.status === 429)!;
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.html).toContain('Too many attempts');

    expect((await signInFrom(auth, '198.51.100.9', user.email, PASSWORD)).status).toBe(200);
    expect((await signInFrom(auth, attacker, user.email, PASSWORD)).status).toBe(429);
  });

  test('the account-wide ceiling: once spent, a network that failed for the account is refused (even the right password); a network that has not still signs in, and gets one guess', async () => {
    const auth = await startOn(behindProxy);
    const user = await aUser(auth);
    expect(await statuses(3, () => signInFrom(auth, '203.0.113.1', user.email, 'wrong password'))).toEqual([401, 401, 401]);
    expect(await statuses(2, () => signInFrom(auth, '203.0.113.2', user.email, 'wrong password'))).toEqual([401, 401]);
    // 5 failures: the ceiling. The second network has 2 < 3 failures of its own, yet is refused.
    const refused = await signInFrom(auth, '203.0.113.2', user.email, PASSWORD);
    expect(refused.status).toBe(429);
    // Until this network's own window ends, not the ceiling's.
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(limits.loginPerAccountNetwork.windowSeconds);
    expect((await signInFrom(auth, '198.51.100.9', user.email, PASSWORD)).status).toBe(200);
    // A new network of a distributed attacker: one guess, then refused.
    expect(await statuses(2, () => signInFrom(auth, '203.0.113.3', user.email, 'wrong password'))).toEqual([401, 429]);
  });

  test('per-client budgets key IPv6 clients by their /64: two addresses of one /64 share a budget, another /64 has its own', async () => {
    const auth = await startOn(behindProxy);
    expect(await registerFrom(auth, '2001:db8:1:2::1')).toBe(201);
    expect(await registerFrom(auth, '2001:db8:1:2:aaaa:bbbb:cccc:dddd')).toBe(201);
    expect(await registerFrom(auth, '2001:0db8:0001:0002:0000:0000:0000:0009')).toBe(429);
    expect(await registerFrom(auth, '2001:db8:1:3::1')).toBe(201);
    // An IPv4 client seen through a dual-stack socket (IPv4-mapped) is the same client.
    expect(await registerFrom(auth, '192.0.2.50')).toBe(201);
    expect(await registerFrom(auth, '::ffff:192.0.2.50')).toBe(201);
    expect(await registerFrom(auth, '::ffff:c000:232')).toBe(429);

    expect((await signUpOnce(auth, '2001:db8:5:6::1')).status).toBe(200);
    expect((await signUpOnce(auth, '2001:db8:5:6::2')).status).toBe(200);
    expect((await signUpOnce(auth, '2001:db8:5:6:ffff::3')).status).toBe(429);
    expect((await signUpOnce(auth, '2001:db8:5:7::1')).status).toBe(200);

    const user = await aUser(auth);
    for (const address of ['2001:db8:9:9::1', '2001:db8:9:9::2', '2001:db8:9:9::3']) {
      expect((await signInFrom(auth, address, user.email, 'wrong password')).status).toBe(401);
    }
    expect((await signInFrom(auth, '2001:db8:9:9::4', user.email, PASSWORD)).status).toBe(429);
    expect((await signInFrom(auth, '2001:db8:9:a::4', user.email, PASSWORD)).status).toBe(200);
  });

  test('sign-up and registration budgets hold under parallel requests', async () => {
    const auth = await startOn(behindProxy);
    const registrations = await Promise.all(Array.from({ length: 12 }, () => registerFrom(auth, '192.0.2.10')));
    expect(count(registrations, 201)).toBe(limits.registrationPerNetwork.attempts);
    expect(count(registrations, 429)).toBe(12 - limits.registrationPerNetwork.attempts);
    const signUps = (await Promise.all(Array.from({ length: 12 }, () => signUpOnce(auth, '192.0.2.11')))).map((page) => page.status);
    expect(count(signUps, 200)).toBe(limits.signupPerNetwork.attempts);
    expect(count(signUps, 429)).toBe(12 - limits.signupPerNetwork.attempts);
  });

  test('device code forms per network: Promise.all of 12 guesses from one network, 3 are checked, 9 get 429; another network still enters codes', async () => {
    const auth = await startOn(behindProxy);
    const guess = async (address: string) => {
      const browser = new FormBrowser({ headers: { 'x-forwarded-for': address } });
      return browser.submit(await browser.open(`${auth.issuer}/device`), { user_code: 'BCDF-GHJK' }, { action: /\/device$/ });
    };
    const pages = await Promise.all(Array.from({ length: 12 }, () => guess('192.0.2.12')));
    expect(count(pages.map((page) => page.status), 200)).toBe(limits.deviceCodeEntryPerNetwork.attempts);
    expect(count(pages.map((page) => page.status), 429)).toBe(12 - limits.deviceCodeEntryPerNetwork.attempts);
    expect(pages.filter((page) => page.status === 200).every((page) => page.html.includes('That code is not right.'))).toBe(true);
    const refused = pages.find((page) => page.status === 429);
    expect(refused?.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused?.html).toContain('Too many device codes were sent from this network.');
    expect((await guess('192.0.2.13')).status).toBe(200);
  });

  test('sign-in per (account, network): a success clears the failures; over the limit even the right password gets 429 with Retry-After', async () => {
    const auth = await startOn();
    const user = await aUser(auth);
    expect(await statuses(2, () => signInOnce(auth, user.email, 'wrong password'))).toEqual([401, 401]);
    expect((await signInOnce(auth, user.email, PASSWORD)).status).toBe(200);
    // The address is matched as typed by people: case and spaces do not open a new budget.
    expect(await statuses(3, () => signInOnce(auth, ` ${user.email.toUpperCase()} `, 'wrong password'))).toEqual([401, 401, 401]);
    const refused = await signInOnce(auth, user.email, PASSWORD);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(900);
    expect(refused.html).toContain('Too many attempts');
    // Another account from the same address is not blocked (5 failures < 6 per IP).
    const other = await aUser(auth);
    expect((await signInOnce(auth, other.email, PASSWORD)).status).toBe(200);
  });

  test('sign-in per network: failures across addresses add up', async () => {
    const auth = await startOn();
    const user = await aUser(auth);
    expect(await statuses(6, () => signInOnce(auth, `nobody-${randomUUID()}@example.com`, 'wrong password'))).toEqual([401, 401, 401, 401, 401, 401]);
    expect((await signInOnce(auth, user.email, PASSWORD)).status).toBe(429);
  });

  test('sign-up per network', async () => {
    const auth = await startOn();
    expect(await statuses(2, () => signUpOnce(auth))).toEqual([200, 200]);
    const refused = await signUpOnce(auth);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  test('client registration per network', async () => {
    const auth = await startOn();
    expect(await statuses(2, () => register(auth.issuer, CLIENT))).toEqual([201, 201]);
    const refused = await register(auth.issuer, CLIENT);
    expect(refused.status).toBe(429);
    expect(refused.json.error).toBe('too_many_requests');
  });

  if (store === 'memory') {
    test('memory store: each instance counts on its own (why several instances need REDIS_URL)', async () => {
      const [a, b] = await Promise.all([startOn(), startOn()]);
      expect(await statuses(2, () => register(a.issuer, CLIENT))).toEqual([201, 201]);
      expect((await register(a.issuer, CLIENT)).status).toBe(429);
      expect((await register(b.issuer, CLIENT)).status).toBe(201);
    });
  }
});

withRedis('Redis store shared by instances (needs REDIS_URL; skipped without it)', () => {
  let redis: Redis;
  beforeAll(async () => {
    redis = await connectRedis(redisUrl());
  });
  afterAll(() => redis?.quit());
  const shared = () => ({ redis, keyPrefix: `auth-rl-test-${randomUUID()}` });

  test('two instances share the sign-in throttle: failures on A count on B', async () => {
    const store = shared();
    const [a, b] = await Promise.all([start({ throttleStore: store }), start({ throttleStore: store })]);
    const user = await aUser(a);
    expect(await statuses(2, () => signInOnce(a, user.email, 'wrong password'))).toEqual([401, 401]);
    expect((await signInOnce(b, user.email, 'wrong password')).status).toBe(401);
    expect((await signInOnce(b, user.email, PASSWORD)).status).toBe(429);
    expect((await signInOnce(a, user.email, PASSWORD)).status).toBe(429);
  });

  test('and the per-network budgets: registrations on A count on B', async () => {
    const store = shared();
    const [a, b] = await Promise.all([start({ throttleStore: store }), start({ throttleStore: store })]);
    expect((await register(a.issuer, CLIENT)).status).toBe(201);
    expect((await register(b.issuer, CLIENT)).status).toBe(201);
    expect((await register(a.issuer, CLIENT)).status).toBe(429);
  });

  test('a restart keeps the count: a new instance on the same store is still throttled', async () => {
    const store = shared();
    const first = await start({ throttleStore: store });
    const user = await aUser(first);
    expect(await statuses(3, () => signInOnce(first, user.email, 'wrong password'))).toEqual([401, 401, 401]);
    await first.close();
    const second = await start({ throttleStore: store, domain: first.domain, credentials: first.credentials });
    expect((await signInOnce(second, user.email, PASSWORD)).status).toBe(429);
  });

  test('keys: one namespace per throttle; emails and IPs only as keyed hashes', async () => {
    const store = shared();
    const auth = await start({ throttleStore: store });
    const email = `someone-${randomUUID()}@example.com`;
    await signInOnce(auth, email, 'wrong password');
    await signUpOnce(auth);
    await register(auth.issuer, CLIENT);
    const keys = (await redis.keys(`${store.keyPrefix}:*`)).sort();
    expect(keys.map((key) => key.split(':')[1]).sort()).toEqual(['login-account', 'login-account-network', 'login-network', 'registration-network', 'signup-network']);
    for (const key of keys) {
      expect(key).toMatch(new RegExp(`^${store.keyPrefix}:[a-z-]+:[A-Za-z0-9_-]{43}$`));
      expect(key).not.toContain('@');
      expect(key).not.toContain('127.0.0.1');
      expect(await redis.ttl(key)).toBeGreaterThan(0);
    }
    await redis.del(...keys);
  });

  /** Redis cut under a running server through the fault proxy: the server down (refused), or a partition (hung). */
  describe.each([['refused'], ['hung']] as const)('Redis %s while running', (fault) => {
    test('throttled forms answer 503 with Retry-After within about a second (fail closed), the rest works; once back, counting resumes', async () => {
      const target = new URL(redisUrl());
      const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port || 6379) });
      const viaProxy = new URL(redisUrl());
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      const client = await connectRedis(viaProxy.href);
      try {
        const auth = await start({ throttleStore: { redis: client, keyPrefix: `auth-rl-test-${randomUUID()}` } });
        const user = await aUser(auth);
        expect((await signInOnce(auth, user.email, 'wrong password')).status).toBe(401);

        if (fault === 'refused') {
          await proxy.refuse();
          await waitFor(() => client.status !== 'ready');
        } else {
          proxy.hang();
        }
        const started = performance.now();
        const refused = await signInOnce(auth, user.email, PASSWORD);
        const waitedMs = performance.now() - started;
        expect(refused.status).toBe(503);
        // The page load and the form post, plus at most one command timeout on the limiter.
        expect(waitedMs).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS + 1000);
        // Hung: the next ones do not wait on Redis again during its pause.
        const again = performance.now();
        expect((await signInOnce(auth, user.email, PASSWORD)).status).toBe(503);
        if (fault === 'hung') expect(performance.now() - again).toBeLessThan(REDIS_COMMAND_TIMEOUT_MS);
        expect(refused.headers.get('retry-after')).toBe('30');
        expect(refused.html).toContain('Try again in a minute');
        expect((await signUpOnce(auth)).status).toBe(503);
        const registration = await register(auth.issuer, CLIENT);
        expect(registration.status).toBe(503);
        expect(registration.json.error).toBe('temporarily_unavailable');
        expect((await fetch(`${auth.issuer}/login`)).status).toBe(200);
        expect((await fetch(`${auth.issuer}/.well-known/oauth-authorization-server`)).status).toBe(200);

        await proxy.restore();
        await waitFor(() => client.status === 'ready');
        // After a hang, the throttles try Redis again once their pause is over.
        if (fault === 'hung') await new Promise((resolve) => setTimeout(resolve, REDIS_HUNG_PAUSE_MS));
        if (fault === 'refused') {
          // The failure before the outage still counts: 1 + 2 = 3, the limit.
          expect(await statuses(2, () => signInOnce(auth, user.email, 'wrong password'))).toEqual([401, 401]);
          expect((await signInOnce(auth, user.email, PASSWORD)).status).toBe(429);
        } else {
          // Commands that timed out in the hang were on the wire and may land late: counts only come out higher.
          const after = await statuses(3, () => signInOnce(auth, user.email, 'wrong password'));
          expect(after.every((status) => status === 401 || status === 429)).toBe(true);
          expect(after.at(-1)).toBe(429);
          expect((await signInOnce(auth, (await aUser(auth)).email, PASSWORD)).status).toBe(200);
        }
      } finally {
        client.disconnect();
        await proxy.close();
      }
    });
  });
});

test('a throttle store that fails (no Redis needed): sign-in on both forms, sign-up, registration and the device code form answer 503, other pages work', async () => {
  const unavailable = () => Promise.reject(new RateLimitStoreError('auth-rl:test', new Error('Redis connection is not ready')));
  const failing: Throttle = { retryAfter: unavailable, hit: unavailable, refund: unavailable, reset: unavailable };
  const throttles: Throttles = { loginPerAccountNetwork: failing, loginPerAccount: failing, loginPerNetwork: failing, signupPerNetwork: failing, signupPerInvitation: failing, registrationPerNetwork: failing, deviceCodeEntryPerNetwork: failing };
  const auth = await start({ throttles });
  const user = await aUser(auth);

  const signIn = await signInOnce(auth, user.email, PASSWORD);
  expect(signIn.status).toBe(503);
  expect(signIn.headers.get('retry-after')).toBe('30');
  expect(signIn.html).toContain('cannot count attempts right now');
  expect((await signUpOnce(auth)).status).toBe(503);
  const registration = await fetch(`${auth.issuer}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(CLIENT) });
  expect(registration.status).toBe(503);
  expect(registration.headers.get('retry-after')).toBe('30');
  expect(await registration.json()).toEqual({ error: 'temporarily_unavailable', error_description: expect.stringContaining('Retry in 30 seconds') });
  const device = new FormBrowser();
  const codeForm = await device.submit(await device.open(`${auth.issuer}/device`), { user_code: 'BCDF-GHJK' }, { action: /\/device$/ });
  expect(codeForm.status).toBe(503);
  expect(codeForm.headers.get('retry-after')).toBe('30');
  for (const path of ['/login', '/signup', '/.well-known/oauth-authorization-server', '/jwks']) {
    expect((await fetch(`${auth.issuer}${path}`)).status).toBe(200);
  }

  // The sign-in form of an authorization request, with a client registered through a healthy instance on the same storage.
  const healthy = await start({ domain: auth.domain, credentials: auth.credentials, oidc: auth.oidc, throttleStore: 'memory' });
  const client = await aPublicClient(healthy.issuer);
  const browser = new FormBrowser();
  const page = await browser.open(
    authorizeUrl(auth.issuer, {
      client_id: client.client_id,
      response_type: 'code',
      redirect_uri: client.redirect_uris[0],
      scope: 'mcp:read',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
    }),
  );
  expect(page.url).toContain('/interaction/');
  expect((await browser.submit(page, { email: user.email, password: PASSWORD }, { action: /\/login$/ })).status).toBe(503);
});

test('REDIS_URL set but Redis unreachable at start: the server does not start, and says what to start', async () => {
  const port = await closedPort();
  const env = parseEnv({ AUTH_PORT: '0', AUTH_HOST: '127.0.0.1', REDIS_URL: `redis://:s3cret@127.0.0.1:${port}` });
  expect(env.redisUrl).toBe(`redis://:s3cret@127.0.0.1:${port}`);
  const memory = memoryDomain();
  const failure = serveAuth({
    env,
    root: await mkdtemp(join(tmpdir(), 'auth-redis-')),
    domain: memory,
    credentials: createInMemoryCredentials(memory),
    oidc: createInMemoryOidcStorage(),
    log: silentLogger(),
  });
  await expect(failure).rejects.toThrow(new RegExp(`^Cannot reach Redis at 127\\.0\\.0\\.1:${port} \\(REDIS_URL\\): .*\\. Start Redis there`));
  await expect(failure).rejects.not.toThrow(/s3cret/);
});


async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
