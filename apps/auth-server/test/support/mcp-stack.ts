import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DomainDeps } from '@cp/domain';
import { inMemoryDeps } from '@cp/domain/testing';
// By path, not as a workspace dependency: the embedded `pnpm start` runner lives in
// apps/mcp-server and depends on this package, and a dependency back would be a cycle.
import { createApp as createMcpApp, createLogger, createRateLimits, makeConfig } from '../../../mcp-server/src/index.js';
import type { OidcStorage } from '../../src/oidc/storage.js';
import { startAuthServer, type AuthHarness, type HarnessOptions } from './harness.js';

export interface Stack {
  readonly auth: AuthHarness;
  readonly mcpUrl: string;
  readonly domain: DomainDeps;
  close(): Promise<void>;
}

/** The grant check the MCP server makes, over the auth server's storage (packages/db does the same over Prisma). */
export const grantLookup = (oidc: OidcStorage) => ({
  exists: async (grantId: string) => (await oidc.adapterFor('Grant').find(grantId)) !== undefined,
});

/**
 * The auth server and the real MCP server (apps/mcp-server's createApp), wired as
 * in production: the MCP server trusts this issuer, fetches its JWKS and checks
 * grants in the same storage. `grantCacheSeconds` is short so revocation tests are quick.
 */
export async function startStack(options: HarnessOptions & { grantCacheSeconds?: number } = {}): Promise<Stack> {
  const { deps } = inMemoryDeps();
  const domain: DomainDeps = { ...deps, clock: { now: () => new Date() } };
  const mcpServer: Server = createServer();
  await new Promise<void>((resolve) => mcpServer.listen(0, '127.0.0.1', resolve));
  const port = (mcpServer.address() as AddressInfo).port;
  const mcpUrl = `http://127.0.0.1:${port}/mcp`;
  const auth = await startAuthServer({ domain, ...options, config: { mcpResourceUrl: mcpUrl, ...options.config } });
  const config = makeConfig({
    port,
    publicUrl: mcpUrl,
    auth: { issuer: auth.issuer, jwksUrl: null, grantCacheSeconds: options.grantCacheSeconds ?? 2, jwksCooldownMs: 30_000 },
  });
  mcpServer.on(
    'request',
    createMcpApp({ config, domain, grants: grantLookup(auth.oidc), rateLimits: createRateLimits(config.rateLimit), log: createLogger({ level: 'silent' }) }),
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
