import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { createApp } from '../../apps/mcp-server/src/app.js';
import { grantLookupFromMap } from '../../packages/domain/src/testing/in-memory-grant-lookup.js';
import { makeConfig } from '../../apps/mcp-server/src/config.js';
import { createLogger } from '../../packages/http-runtime/src/log.js';
import { createRateLimits } from '../../apps/mcp-server/src/rate-limit/limiter.js';
import { startTestIssuer } from '../../apps/mcp-server/test/support/test-issuer.js';
import { openBenchDomain } from './domain.js';
import { seedMemberOrganization, seedOrganization } from './seed.js';

export interface BenchTarget {
  readonly url: string;
  readonly token: string;
  readonly organizationId: string;
  readonly componentId: string;
  readonly components: number;
  /** Further organizations of the same user, by size, for the filtered listings. */
  readonly filterOrganizations: readonly { readonly components: number; readonly organizationId: string }[];
}

/**
 * The real MCP app (createApp, production token verification, grant check and rate
 * limiting with limits raised out of the way, request logging at `warn`) over
 * PostgreSQL and the embedded S3 server, seeded with one organization of `components`
 * and one more of each of `filterSizes`.
 */
export async function startBenchApp(
  components: number,
  filterSizes: readonly number[] = [],
): Promise<{ target: BenchTarget; databaseUrl: string; close(): Promise<void> }> {
  const domain = await openBenchDomain();
  const seeded = await seedOrganization(domain, components);
  const filterOrganizations = [];
  for (const size of filterSizes) {
    filterOrganizations.push({ components: size, organizationId: await seedMemberOrganization(domain, seeded.userId, size) });
  }
  // Planner statistics, as autovacuum keeps them on any real database. Right after a
  // bulk seed there are none: PostgreSQL then guesses ~40 rows per organization and
  // sorts all 10,000 instead of reading the first page from the (organization_id,
  // name_key) index, a plan no production database with this data would run.
  await domain.analyze();

  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}/mcp`;
  const issuer = await startTestIssuer({ audience: url });
  const config = makeConfig({
    port,
    publicUrl: url,
    auth: { ...makeConfig({ port }).auth, issuer: issuer.issuer },
    rateLimit: { userPoints: 1e9, ipPoints: 1e9, windowSeconds: 60, uploadPoints: 1e9, uploadWindowSeconds: 60 },
  });
  server.on(
    'request',
    createApp({
      config,
      domain: domain.deps,
      grants: grantLookupFromMap(issuer.grants),
      rateLimits: createRateLimits(config.rateLimit),
      log: createLogger({ service: 'mcp-bench', level: 'warn', destination: process.stderr }),
    }),
  );
  const token = await issuer.sign({ sub: seeded.userId, expiresIn: 24 * 3600 });
  return {
    databaseUrl: domain.databaseUrl,
    target: { url, token, organizationId: seeded.organizationId, componentId: seeded.componentId, components, filterOrganizations },
    async close() {
      // Stop serving before the database closes. Requests whose client went away when
      // the load generator stopped are still running: give them a moment (each takes
      // milliseconds) so none meets a closed pool.
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await sleep(500);
      await issuer.close();
      await domain.close();
    },
  };
}
