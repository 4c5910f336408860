import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ApplicationGrants, Clock, DomainDeps, ObjectStore, Repositories, RolloutFigures, UsageReader, User } from '@cp/domain';
import type { Express } from 'express';
import { createObjectStore, startEmbeddedS3 } from '@cp/storage';
import { createRolloutFigures, createUsageReader } from '@cp/db';
import { createTestDatabase, type TestDatabase } from '@cp/db/testing';
import { defaultDomainConfig } from '@cp/domain';
import { hashPassword } from '../../../auth-server/src/accounts/passwords.js';
import { aUser, PASSWORD } from '../../../auth-server/test/support/flow.js';
import { databaseStorage, startAuthServer, TEST_PASSWORD_COST, type AuthHarness } from '../../../auth-server/test/support/harness.js';
import { createApp } from '../../src/app.js';
import { type DashboardConfig, makeConfig } from '../../src/config.js';
import { silentLogger } from '@cp/http-runtime';

/*
 * The dashboard on a real port next to the real auth server (OIDC sign-in), as
 * the browser test and the HTTP tests both run it. The port is taken before the
 * app exists because the auth server must know the dashboard's redirect URI.
 */

/** The client the auth server is configured with (confidential, first-party). */
export const dashboardClient = (url: string) => ({ clientId: 'dashboard', clientSecret: 'test-dashboard-secret-0123456789abcdef', url });

/** A server listening on a free loopback port, with no handler yet. */
export async function listenFirst(): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Mounts the dashboard on an already listening server. */
export function mountDashboard(
  server: Server,
  options: { url: string; auth: AuthHarness; domain: DomainDeps; grants: ApplicationGrants; usage: UsageReader; rolloutFigures: RolloutFigures; config?: Partial<DashboardConfig> },
): { app: Express; config: DashboardConfig } {
  const client = dashboardClient(options.url);
  const config = makeConfig({ publicUrl: options.url, issuer: options.auth.issuer, clientId: client.clientId, clientSecret: client.clientSecret, ...options.config });
  const app = createApp({ config, domain: options.domain, grants: options.grants, usage: options.usage, rolloutFigures: options.rolloutFigures, log: silentLogger() });
  server.on('request', app);
  return { app, config };
}

/** An account that can sign in on the auth server with PASSWORD. */
export async function anAccount(auth: AuthHarness): Promise<User> {
  const user = await aUser(auth);
  await auth.credentials.setPasswordHash(user.id, await hashPassword(PASSWORD, TEST_PASSWORD_COST), new Date());
  return user;
}

export interface DashboardStack {
  readonly url: string;
  readonly config: DashboardConfig;
  /** The Express app serving `url` (tests read its routes). */
  readonly app: Express;
  readonly auth: AuthHarness;
  /** This stack's own database; null when it runs on `shared` data. */
  readonly db: TestDatabase | null;
  readonly domain: DomainDeps;
  /** What the usage pages read: the rollups of this stack's database. */
  readonly usage: UsageReader;
  /** What the rollout page reads: sessions per variant of this stack's database. */
  readonly rolloutFigures: RolloutFigures;
  close(): Promise<void>;
}

export interface DashboardStackOptions {
  /** Settings over the test defaults (e.g. `mcpUrl`, `deliveryUrl`). */
  readonly config?: Partial<DashboardConfig>;
  /** The dashboard's clock (default: the real one): what releases, tag edits and environments are stamped with. */
  readonly clock?: Clock;
  /**
   * Run on another harness's data (e.g. the delivery API's test stack, whose change feed a delivery
   * instance needs) instead of a new test database and S3. The auth server then keeps its OIDC data
   * and passwords in memory; the caller closes the shared data after the stack.
   */
  readonly shared?: { readonly repos: Repositories; readonly objects: ObjectStore; readonly usage: UsageReader; readonly rolloutFigures: RolloutFigures };
}

/**
 * One test file's dashboard: its own database (createTestDatabase), the embedded S3, the auth server
 * on the same database (or all of it on `shared` data).
 */
export async function startDashboardStack(options: DashboardStackOptions = {}): Promise<DashboardStack> {
  const [listening, owned] = await Promise.all([listenFirst(), options.shared === undefined ? ownData() : null]);
  const { repos, objects } = options.shared ?? owned!;
  const usage = owned === null ? options.shared!.usage : createUsageReader(owned.db.database.sql);
  const rolloutFigures = owned === null ? options.shared!.rolloutFigures : createRolloutFigures(owned.db.database.sql);
  // A test's clock may be read (the component page's chart reads it) before the test first sets its time: until then, the real time.
  const clock: Clock = { now: () => options.clock?.now() ?? new Date() };
  const domain: DomainDeps = { repos, objects, ids: { newId: () => crypto.randomUUID() }, clock, config: defaultDomainConfig };
  const dashboard = dashboardClient(listening.url);
  const auth = await startAuthServer(
    owned === null ? { domain: { repos, ids: domain.ids, clock: { now: () => new Date() } }, config: { dashboard } } : { ...databaseStorage(owned.db), config: { dashboard } },
  );
  const { app, config } = mountDashboard(listening.server, { url: listening.url, auth, domain, grants: auth.oidc, usage, rolloutFigures, ...(options.config ? { config: options.config } : {}) });
  return {
    url: listening.url,
    config,
    app,
    auth,
    db: owned?.db ?? null,
    domain,
    usage,
    rolloutFigures,
    async close() {
      await listening.close();
      await auth.close();
      await owned?.close();
    },
  };
}

async function ownData(): Promise<{ db: TestDatabase; repos: Repositories; objects: ObjectStore; close(): Promise<void> }> {
  const [db, s3] = await Promise.all([createTestDatabase(), startEmbeddedS3()]);
  const objects = createObjectStore(s3.config);
  await objects.ensureBucket();
  return {
    db,
    repos: db.repos,
    objects,
    async close() {
      await s3.close();
      await db.close();
    },
  };
}
