/**
 * Child process: the real MCP app (createApp, production token verification and
 * rate limiting with limits raised out of the way) over PostgreSQL and the
 * embedded S3 server, seeded with one organization of 10,000 components. Prints
 * one JSON line { url, token, organizationId, componentId } when ready.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { confirmUpload, registerUser, startUpload } from '../../packages/domain/src/index.js';
import { createApp } from '../../apps/mcp-server/src/app.js';
import { grantLookupFromSet } from '../../apps/mcp-server/src/auth/grant-lookup.js';
import { makeConfig } from '../../apps/mcp-server/src/config.js';
import { createLogger } from '../../apps/mcp-server/src/log.js';
import { createRateLimits } from '../../apps/mcp-server/src/rate-limit/limiter.js';
import { startTestIssuer } from '../../apps/mcp-server/test/support/test-issuer.js';
import { openBenchDomain } from './domain.js';

const COMPONENTS = Number(process.env.BENCH_COMPONENTS ?? 10_000);

const domain = await openBenchDomain();
const deps = domain.deps;

const user = await registerUser({ email: `bench-${Date.now()}@example.com` }, deps);
const organizationId = user.defaultOrganizationId;

// The component get_component reads: a real upload (presigned PUT, confirm).
const html = `<!doctype html><html><head><style>p{color:#333}</style></head><body>${'<p>Benchmark component</p>'.repeat(40)}</body></html>`;
const started = await startUpload({ actor: { userId: user.id }, name: 'aaa-bench-target' }, deps);
const put = await fetch(started.uploadUrl, { method: 'PUT', headers: { 'content-type': 'text/html' }, body: html });
if (!put.ok) throw new Error(`seed upload failed: ${put.status}`);
const target = await confirmUpload({ actor: { userId: user.id }, uploadId: started.session.id }, deps);

// The rest of the organization, through the repositories (no objects needed to list them).
const now = new Date();
let next = 1;
const worker = async () => {
  while (next < COMPONENTS) {
    const i = next++;
    const id = deps.ids.newId();
    const componentId = deps.ids.newId();
    await deps.repos.uploadSessions.create({
      id,
      userId: user.id,
      organizationId,
      componentId: null,
      componentName: `component-${String(i).padStart(5, '0')}`,
      stagingKey: `staging/${id}`,
      state: 'pending',
      expiresAt: new Date(now.getTime() + 3600_000),
      createdAt: now,
      result: null,
    });
    await deps.repos.uploadSessions.confirm({
      sessionId: id,
      now,
      componentId,
      newComponent: { id: componentId, organizationId, name: `component-${String(i).padStart(5, '0')}`, description: `Seeded component ${i}` },
      variant: { id: deps.ids.newId(), objectKey: `variants/${componentId}/seed`, size: 10, sha256: '0'.repeat(64), integrity: 'sha384-seed', createdBy: user.id },
    });
  }
};
await Promise.all(Array.from({ length: 8 }, worker));

const server = createServer();
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;
const url = `http://127.0.0.1:${port}/mcp`;
const issuer = await startTestIssuer({ audience: url });
const config = makeConfig({
  port,
  publicUrl: url,
  auth: { issuer: issuer.issuer, jwksUrl: null, grantCacheSeconds: 30, jwksCooldownMs: 30_000 },
  rateLimit: { userPoints: 1e9, ipPoints: 1e9, windowSeconds: 60, uploadPoints: 1e9, uploadWindowSeconds: 60 },
});
server.on(
  'request',
  createApp({
    config,
    domain: deps,
    grants: grantLookupFromSet(issuer.grants),
    rateLimits: createRateLimits(config.rateLimit),
    log: createLogger({ level: 'warn', destination: process.stderr }),
  }),
);
const token = await issuer.sign({ sub: user.id, expiresIn: 24 * 3600 });
process.stdout.write(`${JSON.stringify({ url, token, organizationId, componentId: target.componentId, components: COMPONENTS })}\n`);

const stop = async () => {
  // Stop serving before the database closes, so no request meets a closed pool.
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await issuer.close();
  await domain.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
