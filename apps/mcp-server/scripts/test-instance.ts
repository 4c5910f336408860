/**
 * A throwaway MCP server for checks that need a running instance and a token
 * (scripts/inspector-check.sh): the production app wired by createApp, with a
 * test issuer (ES256 key, JWKS served over HTTP by this process, the stand-in
 * for apps/auth-server), in-memory repositories and the embedded S3 server.
 * Prints one JSON line { mcpUrl, token } on stdout, then serves until killed.
 * Never use it as a real server: it trusts a key it made up itself.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registerUser } from '@cp/domain';
import { createApp } from '../src/app.js';
import { grantLookupFromMap } from '@cp/domain/testing';
import { makeConfig } from '../src/config.js';
import { createLogger } from '@cp/http-runtime';
import { createRateLimits } from '../src/rate-limit/limiter.js';
import { createTestDomain } from '../test/support/domain.js';
import { startTestIssuer } from '../test/support/test-issuer.js';

const server = createServer();
await new Promise<void>((resolve) => server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', resolve));
const port = (server.address() as AddressInfo).port;
const mcpUrl = `http://127.0.0.1:${port}/mcp`;
const issuer = await startTestIssuer({ audience: mcpUrl });
const domain = await createTestDomain();
const config = makeConfig({ port, publicUrl: mcpUrl, auth: { ...makeConfig({ port }).auth, issuer: issuer.issuer } });
server.on(
  'request',
  createApp({
    config,
    domain: domain.deps,
    usage: domain.usage,
    figures: domain.figures,
    grants: grantLookupFromMap(issuer.grants),
    rateLimits: createRateLimits(config.rateLimit),
    log: createLogger({ service: 'mcp-server', level: process.env.LOG_LEVEL ?? 'warn', destination: process.stderr }),
  }),
);
const user = await registerUser({ email: 'inspector@example.com' }, domain.deps);
const token = await issuer.sign({ sub: user.id });
process.stdout.write(`${JSON.stringify({ mcpUrl, token, userId: user.id })}\n`);

const stop = async () => {
  server.closeAllConnections();
  server.close();
  await issuer.close();
  await domain.close();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
