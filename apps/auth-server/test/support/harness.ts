import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DomainDeps } from '@cp/domain';
import { inMemoryDeps } from '@cp/domain/testing';
import { createCredentials, createOidcStorage } from '@cp/db';
import type { TestDatabase } from '@cp/db/testing';
import type { Credentials } from '../../src/accounts/credentials.js';
import { createApp } from '../../src/app.js';
import { type AuthConfig, makeConfig } from '../../src/config.js';
import { generateSigningKey, type SigningKey } from '../../src/keys/signing-keys.js';
import { silentLogger } from '../../src/log.js';
import type { OidcStorage } from '../../src/oidc/storage.js';
import { createThrottles } from '../../src/security/throttle.js';
import { memoryCredentials, memoryOidcStorage } from './memory-storage.js';

export interface AuthHarness {
  readonly issuer: string;
  readonly config: AuthConfig;
  readonly domain: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>;
  readonly oidc: OidcStorage;
  readonly credentials: Credentials;
  readonly signingKeys: SigningKey[];
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly config?: Partial<AuthConfig>;
  readonly domain?: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>;
  readonly oidc?: OidcStorage;
  readonly credentials?: Credentials;
  readonly signingKeys?: SigningKey[];
}

/** A domain on in-memory ports with a real clock (oidc-provider works in real time). */
export function memoryDomain(): Pick<DomainDeps, 'repos' | 'ids' | 'clock'> & { passwordHashes: Map<string, string> } {
  const { deps, repos } = inMemoryDeps();
  return { repos: deps.repos, ids: deps.ids, clock: { now: () => new Date() }, passwordHashes: repos.state.passwordHashes };
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
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = makeConfig({ issuer, ...options.config });
  const memory = options.domain ? null : memoryDomain();
  const domain = options.domain ?? memory!;
  const oidc = options.oidc ?? memoryOidcStorage();
  const credentials = options.credentials ?? memoryCredentials(memory?.passwordHashes ?? new Map());
  const signingKeys = options.signingKeys ?? [await generateSigningKey()];
  const app = createApp({ config, signingKeys, domain, credentials, oidc, throttles: createThrottles(config.throttle), log: silentLogger() });
  server.on('request', app);
  return {
    issuer,
    config,
    domain,
    oidc,
    credentials,
    signingKeys,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
