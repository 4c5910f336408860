import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Credentials, DomainDeps, OidcStorage } from '@cp/domain';
import { createInMemoryCredentials, createInMemoryOidcStorage, inMemoryDeps, type InMemoryState } from '@cp/domain/testing';
import { createCredentials, createOidcStorage } from '@cp/db';
import { connectRedis, type Redis } from '@cp/http-runtime/rate-limit';
import type { TestDatabase } from '@cp/db/testing';
import type { ScryptCost } from '../../src/accounts/passwords.js';
import { createApp } from '../../src/app.js';
import type { CimdDeps } from '../../src/cimd/client-documents.js';
import { type AuthConfig, makeConfig } from '../../src/config.js';
import { generateSigningKey, type SigningKey } from '../../src/keys/signing-keys.js';
import { type Logger, silentLogger } from '@cp/http-runtime';
import { createDevicePolls } from '../../src/security/device-polls.js';
import { createThrottles, type Throttles } from '../../src/security/throttle.js';

/**
 * The scrypt cost of the tests' accounts and of the apps they start: below the
 * production floor (PASSWORD_COST), because every sign-up at the floor costs most of
 * a second of CPU. Tests of hashing itself (password-upgrade, throttling) pass the floor.
 */
export const TEST_PASSWORD_COST: ScryptCost = { logN: 12, r: 8, p: 1 };

export interface AuthHarness {
  readonly issuer: string;
  /** Where the server listens: the issuer, or its http form when the issuer is https (`https` option). */
  readonly url: string;
  readonly config: AuthConfig;
  readonly domain: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>;
  readonly oidc: OidcStorage;
  readonly credentials: Credentials;
  readonly signingKeys: SigningKey[];
  /** Where this instance's throttles count. */
  readonly throttleStore: 'memory' | 'redis';
  close(): Promise<void>;
}

/**
 * Where the throttles count: this process's memory; `redis`, a connection of the
 * harness's own to REDIS_URL under a key prefix of its own (so tests never share
 * counters); or a given client and prefix (instances given the same share counters).
 */
export type ThrottleStoreOption = 'memory' | 'redis' | { readonly redis: Redis; readonly keyPrefix: string };

/** The store the environment names: Redis when REDIS_URL is set (CI runs the suite both ways), else memory. */
export const environmentThrottleStore = (): 'memory' | 'redis' => (process.env.REDIS_URL ? 'redis' : 'memory');

/** REDIS_URL, for tests that need Redis (they run only when it is set). */
export function redisUrl(): string {
  const url = process.env.REDIS_URL;
  if (!url) throw new Error('REDIS_URL is not set: this test needs Redis (e.g. REDIS_URL=redis://127.0.0.1:6379)');
  return url;
}

export interface HarnessOptions {
  readonly config?: Partial<AuthConfig>;
  readonly domain?: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>;
  readonly oidc?: OidcStorage;
  readonly credentials?: Credentials;
  readonly signingKeys?: SigningKey[];
  /** Default: `environmentThrottleStore()`. */
  readonly throttleStore?: ThrottleStoreOption;
  /** Replaces the throttles altogether (e.g. ones whose store fails). */
  readonly throttles?: Throttles;
  /** Default: a silent logger. */
  readonly log?: Logger;
  /** Default: TEST_PASSWORD_COST. */
  readonly passwordCost?: ScryptCost;
  /**
   * Production's cookies behind a TLS-terminating proxy: an https issuer, secure
   * cookies, and X-Forwarded-* trusted from loopback. Requests go to `url` with
   * X-Forwarded-Proto: https (FormBrowser's `tlsProxy`); there is no TLS here.
   */
  readonly https?: boolean;
  /** How client metadata documents are resolved, trusted and timed (test resolver, CA, clock). */
  readonly cimd?: CimdDeps;
}

/** A domain on in-memory ports with a real clock (oidc-provider works in real time). */
export function memoryDomain(): Pick<DomainDeps, 'repos' | 'ids' | 'clock'> & { passwordHashes: Map<string, string>; state: InMemoryState } {
  const { deps, repos } = inMemoryDeps();
  return { repos: deps.repos, ids: deps.ids, clock: { now: () => new Date() }, passwordHashes: repos.state.passwordHashes, state: repos.state };
}

/** Everything the auth server stores, on a real database (PGlite, or PostgreSQL with DATABASE_URL). */
export function databaseStorage(db: TestDatabase): Required<Pick<HarnessOptions, 'domain' | 'oidc' | 'credentials'>> {
  return {
    domain: { repos: db.repos, ids: { newId: () => crypto.randomUUID() }, clock: { now: () => new Date() } },
    oidc: createOidcStorage(db.prisma),
    credentials: createCredentials(db.prisma),
  };
}

/** The auth server on a real port, wired by createApp (in-memory storage unless given one). */
export async function startAuthServer(options: HarnessOptions = {}): Promise<AuthHarness> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer = options.https ? url.replace(/^http:/, 'https:') : url;
  const config = makeConfig({ issuer, ...(options.https ? { secureCookies: true, trustProxy: 'loopback' } : {}), ...options.config });
  const memory = options.domain ? null : memoryDomain();
  const domain = options.domain ?? memory!;
  // Revocations record their audit rows in the in-memory repositories' trail.
  const oidc = options.oidc ?? createInMemoryOidcStorage(undefined, memory?.state);
  const credentials = options.credentials ?? createInMemoryCredentials(memory ?? { passwordHashes: new Map() });
  const signingKeys = options.signingKeys ?? [await generateSigningKey()];
  const store = options.throttleStore ?? environmentThrottleStore();
  const ownRedis = store === 'redis' ? await connectRedis(redisUrl()) : null;
  const redis = typeof store === 'object' ? store.redis : ownRedis;
  const keyPrefix = typeof store === 'object' ? store.keyPrefix : `auth-rl-test-${randomUUID()}`;
  const counters = { redis, keyPrefix, keySecret: config.cookieKeys[0] ?? '' };
  const throttles = options.throttles ?? createThrottles(config.throttle, counters);
  const log = options.log ?? silentLogger();
  const app = createApp({
    config,
    signingKeys,
    domain,
    credentials,
    oidc,
    throttles,
    devicePolls: createDevicePolls({ config: config.deviceFlow, store: counters, log }),
    passwordCost: options.passwordCost ?? TEST_PASSWORD_COST,
    log,
    ...(options.cimd === undefined ? {} : { cimd: options.cimd }),
  });
  server.on('request', app);
  return {
    issuer,
    url,
    config,
    domain,
    oidc,
    credentials,
    signingKeys,
    throttleStore: redis === null ? 'memory' : 'redis',
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await ownRedis?.quit();
    },
  };
}
