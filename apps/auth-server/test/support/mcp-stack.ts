import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGrantLookup, createRolloutFigures, createUsageReader } from '@cp/db';
import type { TestDatabase } from '@cp/db/testing';
import { defaultDomainConfig, type DomainDeps } from '@cp/domain';
import { InMemoryObjectStore } from '@cp/domain/testing';
// By path, not as a workspace dependency: the embedded `pnpm start` runner lives in
// apps/mcp-server and depends on this package, and a dependency back would be a cycle.
import { silentLogger } from '@cp/http-runtime';
import { createApp as createMcpApp, createRateLimits, makeConfig } from '../../../mcp-server/src/index.js';
import { databaseStorage, startAuthServer, type AuthHarness, type HarnessOptions } from './harness.js';

export interface Stack {
  readonly auth: AuthHarness;
  readonly mcpUrl: string;
  readonly domain: DomainDeps;
  close(): Promise<void>;
}

/**
 * The auth server and the real MCP server (apps/mcp-server's createApp) on one
 * database, wired as in production: the MCP server trusts this issuer, fetches
 * its JWKS and checks grants with packages/db's `createGrantLookup`.
 * `grantCacheSeconds` is short so revocation tests are quick.
 */
export async function startStack(
  db: TestDatabase,
  options: { grantCacheSeconds?: number; auth?: Pick<HarnessOptions, 'cimd'> & { config?: Pick<NonNullable<HarnessOptions['config']>, 'cimd' | 'exchange'> } } = {},
): Promise<Stack> {
  const storage = databaseStorage(db);
  const domain: DomainDeps = { ...storage.domain, objects: new InMemoryObjectStore(), config: defaultDomainConfig };
  const mcpServer: Server = createServer();
  await new Promise<void>((resolve) => mcpServer.listen(0, '127.0.0.1', resolve));
  const port = (mcpServer.address() as AddressInfo).port;
  const mcpUrl = `http://127.0.0.1:${port}/mcp`;
  const auth = await startAuthServer({ ...storage, ...options.auth, config: { ...options.auth?.config, mcpResourceUrl: mcpUrl } });
  const config = makeConfig({
    port,
    publicUrl: mcpUrl,
    auth: { ...makeConfig({ port }).auth, issuer: auth.issuer, grantCacheSeconds: options.grantCacheSeconds ?? 2 },
  });
  mcpServer.on(
    'request',
    createMcpApp({ config, domain, grants: createGrantLookup(db.prisma), usage: createUsageReader(db.database.sql), figures: createRolloutFigures(db.database.sql), rateLimits: createRateLimits(config.rateLimit), log: silentLogger() }),
  );
  return {
    auth,
    mcpUrl,
    domain,
    async close() {
      mcpServer.closeAllConnections();
      await new Promise<void>((resolve) => mcpServer.close(() => resolve()));
      await auth.close();
    },
  };
}
