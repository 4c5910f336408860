import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectedApplications, type ConnectedApplications } from '@cp/db';
import type { DomainDeps, User } from '@cp/domain';
import { createObjectStore, startEmbeddedS3 } from '@cp/storage';
import { createTestDatabase, type TestDatabase } from '@cp/db/testing';
import { defaultDomainConfig } from '@cp/domain';
import { hashPassword } from '../../../auth-server/src/accounts/passwords.js';
import { aUser, PASSWORD } from '../../../auth-server/test/support/flow.js';
import { databaseStorage, startAuthServer, type AuthHarness } from '../../../auth-server/test/support/harness.js';
import { createApp } from '../../src/app.js';
import { type DashboardConfig, makeConfig } from '../../src/config.js';
import { silentLogger } from '../../src/log.js';

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
  options: { url: string; auth: AuthHarness; domain: DomainDeps; applications: ConnectedApplications; config?: Partial<DashboardConfig> },
): DashboardConfig {
  const client = dashboardClient(options.url);
  const config = makeConfig({ publicUrl: options.url, issuer: options.auth.issuer, clientId: client.clientId, clientSecret: client.clientSecret, ...options.config });
  server.on('request', createApp({ config, domain: options.domain, applications: options.applications, log: silentLogger() }));
  return config;
}

/** An account that can sign in on the auth server with PASSWORD. */
export async function anAccount(auth: AuthHarness): Promise<User> {
  const user = await aUser(auth);
  await auth.credentials.setPasswordHash(user.id, await hashPassword(PASSWORD), new Date());
  return user;
}

export interface DashboardStack {
  readonly url: string;
  readonly config: DashboardConfig;
  readonly auth: AuthHarness;
  readonly db: TestDatabase;
  readonly domain: DomainDeps;
  close(): Promise<void>;
}

/** One test file's dashboard: its own database (createTestDatabase), the embedded S3, the auth server on the same database. */
export async function startDashboardStack(): Promise<DashboardStack> {
  const [db, s3, listening] = await Promise.all([createTestDatabase(), startEmbeddedS3(), listenFirst()]);
  const objects = createObjectStore(s3.config);
  await objects.ensureBucket();
  const domain: DomainDeps = { repos: db.repos, objects, ids: { newId: () => crypto.randomUUID() }, clock: { now: () => new Date() }, config: defaultDomainConfig };
  const auth = await startAuthServer({ ...databaseStorage(db), config: { dashboard: dashboardClient(listening.url) } });
  const config = mountDashboard(listening.server, { url: listening.url, auth, domain, applications: connectedApplications(auth.oidc, { hiddenClientIds: ['dashboard'] }) });
  return {
    url: listening.url,
    config,
    auth,
    db,
    domain,
    async close() {
      await listening.close();
      await auth.close();
      await s3.close();
      await db.close();
    },
  };
}
