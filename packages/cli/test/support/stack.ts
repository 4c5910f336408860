import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as delivery from '@cp/delivery-api';
import { type PrismaClient, createCredentials, createDatabase, createGrantLookup, createOidcStorage, createRepositories, createRolloutFigures, createUsageReader, createUsageWriter } from '@cp/db';
import { openMigratedPglite } from '@cp/db/testing';
import { defaultDomainConfig, type DomainDeps, type User } from '@cp/domain';
import { silentLogger } from '@cp/http-runtime';
import * as mcp from '@cp/mcp-server';
import { createObjectStore, startEmbeddedS3 } from '@cp/storage';
// The auth server's own test support, by path: its harness and a real OAuth client (sign-in, consent, code, PKCE).
import { startAuthServer, type AuthHarness, type HarnessOptions } from '../../../../apps/auth-server/test/support/harness.js';
import { aUser, authorizeCode, exchange } from '../../../../apps/auth-server/test/support/flow.js';
import { FormBrowser } from '../../../../apps/auth-server/test/support/form-browser.js';
import { aPublicClient } from '../../../../apps/auth-server/test/support/oauth-client.js';

/** A person's login as the authorization-code flow gives it: what `cpc login` saves. */
export interface Login {
  readonly user: User;
  readonly clientId: string;
  readonly accessToken: string;
  readonly refreshToken: string;
  readonly expiresIn: number;
  readonly scope: string;
}

export interface CliStack {
  readonly auth: AuthHarness;
  readonly mcpUrl: string;
  readonly deliveryUrl: string;
  readonly domain: DomainDeps;
  /** For the test builders that write through Prisma (memberships). */
  readonly database: { readonly prisma: PrismaClient };
  /** How many upload sessions were ever started. */
  countUploadSessions(): Promise<number>;
  /**
   * The variant /consume serves for the component and environment once it is `variantId` (the delivery API hears
   * of releases through the database), or what it serves after waiting about 5 s.
   */
  eventuallyConsumed(componentId: string, env: string, variantId: string): Promise<string | undefined>;
  /** A new user (with an organization holding staging and prod) signed in through a real code flow. */
  aLogin(options?: { scope?: string }): Promise<Login>;
  close(): Promise<void>;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

async function consumedVariant(deliveryUrl: string, componentId: string, env: string): Promise<string | undefined> {
  const response = await fetch(`${deliveryUrl}/consume?id=${componentId}&env=${env}`, { headers: { 'cache-control': 'no-cache' } });
  const body = (await response.json()) as { item?: { consume_variant?: { id: string }[] } };
  return body.item?.consume_variant?.[0]?.id;
}

/**
 * The services `cpc` talks to, over real HTTP on one PGlite database: the auth server, the MCP server
 * (trusting that issuer and checking grants), the embedded S3 server the presigned PUT goes to, and the
 * delivery API whose /consume shows what was released. `authConfig` adds to the auth server's settings (its
 * CI issuers, a device flow with a short interval and code lifetime).
 */
export async function startCliStack(options: { readonly authConfig?: HarnessOptions['config'] } = {}): Promise<CliStack> {
  const pglite = await openMigratedPglite();
  const database = await createDatabase({ pglite });
  const repos = createRepositories(database);
  const s3 = await startEmbeddedS3();
  const objects = createObjectStore({ ...s3.config, requestTimeoutMs: 15_000 });
  const clock = { now: () => new Date() };
  const ids = { newId: () => randomUUID() };
  const domain: DomainDeps = { repos, objects, clock, ids, config: defaultDomainConfig };

  const mcpServer = createServer();
  const mcpPort = await listen(mcpServer);
  const mcpUrl = `http://127.0.0.1:${mcpPort}/mcp`;
  const auth = await startAuthServer({
    domain: { repos, ids, clock },
    oidc: createOidcStorage(database.prisma),
    credentials: createCredentials(database.prisma),
    // The auth server's own settings a test adds (e.g. its CI issuers), then the MCP resource.
    config: { ...options.authConfig, mcpResourceUrl: mcpUrl },
  });
  const mcpConfig = mcp.makeConfig({ port: mcpPort, publicUrl: mcpUrl, auth: { ...mcp.makeConfig({ port: mcpPort }).auth, issuer: auth.issuer, grantCacheSeconds: 2 } });
  mcpServer.on(
    'request',
    mcp.createApp({
      config: mcpConfig,
      domain,
      grants: createGrantLookup(database.prisma),
      usage: createUsageReader(database.sql),
      figures: createRolloutFigures(database.sql),
      rateLimits: mcp.createRateLimits(mcpConfig.rateLimit),
      log: silentLogger(),
    }),
  );

  const changes = await delivery.createPGliteChangeFeed(pglite);
  await changes.listening;
  const deliveryApp = delivery.createApp({
    config: delivery.makeConfig({ publicUrl: 'http://delivery.test' }),
    repos,
    objects,
    changes,
    log: silentLogger(),
    hostSdk: delivery.readHostSdkFile(),
    hostFrame: delivery.readHostFrameFile(),
    usage: createUsageWriter(database.sql),
  });
  const deliveryServer = createServer(deliveryApp.listener);
  const deliveryUrl = `http://127.0.0.1:${await listen(deliveryServer)}`;

  return {
    auth,
    mcpUrl,
    deliveryUrl,
    domain,
    database,
    countUploadSessions: () => database.prisma.uploadSession.count(),
    eventuallyConsumed: async (componentId, env, variantId) => {
      for (let attempt = 0; attempt < 50; attempt += 1) {
        const served = await consumedVariant(deliveryUrl, componentId, env);
        if (served === variantId) return served;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return consumedVariant(deliveryUrl, componentId, env);
    },
    async aLogin(options = {}) {
      const user = await aUser(auth);
      const client = await aPublicClient(auth.issuer);
      const flow = await authorizeCode(new FormBrowser(), auth, client, user, options.scope === undefined ? {} : { scope: options.scope });
      const tokens = await exchange(auth, client, flow);
      if (tokens.status !== 200) throw new Error(`the code flow failed: ${JSON.stringify(tokens.json)}`);
      return {
        user,
        clientId: client.client_id,
        accessToken: tokens.json.access_token,
        refreshToken: tokens.json.refresh_token,
        expiresIn: tokens.json.expires_in,
        scope: tokens.json.scope,
      };
    },
    async close() {
      await stop(deliveryServer);
      deliveryApp.close();
      await deliveryApp.usage.close();
      await changes.close();
      await stop(mcpServer);
      await auth.close();
      await database.close();
      await pglite.close();
      await s3.close();
    },
  };
}
