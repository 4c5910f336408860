import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An auth server whose device login starts as docs/cli-and-ci.md states it and whose token endpoint then
 * answers 503 (its database down): a failure the real auth server gives on no request of the test's.
 * It serves no MCP.
 */
export interface DeviceAuthStandIn {
  /** The "MCP URL" whose protected-resource metadata names this server as its issuer. */
  readonly mcpUrl: string;
  /** How many token requests came. */
  readonly tokenRequests: number;
  close(): Promise<void>;
}

export async function startDeviceAuthStandIn(): Promise<DeviceAuthStandIn> {
  let tokenRequests = 0;
  let issuer = '';
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.url === '/.well-known/oauth-protected-resource/mcp') return json(200, { resource: `${issuer}/mcp`, authorization_servers: [issuer] });
      if (req.url === '/.well-known/oauth-authorization-server') {
        return json(200, { issuer, token_endpoint: `${issuer}/token`, device_authorization_endpoint: `${issuer}/device/auth` });
      }
      if (req.url === '/device/auth' && req.method === 'POST') {
        return json(200, {
          device_code: 'stand-in-device-code',
          user_code: 'BCDF-GHJK',
          verification_uri: `${issuer}/device`,
          verification_uri_complete: `${issuer}/device?user_code=BCDF-GHJK`,
          expires_in: 600,
          interval: 1,
        });
      }
      if (req.url === '/token' && req.method === 'POST') {
        tokenRequests += 1;
        return json(503, { error: 'temporarily_unavailable', error_description: 'the database is down' });
      }
      json(404, { error: 'not_found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    mcpUrl: `${issuer}/mcp`,
    get tokenRequests() {
      return tokenRequests;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
