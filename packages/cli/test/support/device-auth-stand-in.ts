import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The auth server's side of the device flow as docs/cli-and-ci.md states it, scripted: each token request
 * gets the next of `answers`: an OAuth error, "unavailable" (503) or "tokens". It serves no MCP: a login's check through the
 * MCP server fails here. It stands in until the auth server's device flow is merged;
 * the full flow, with a person confirming in Chromium, is the auth server's browser test.
 */
export interface DeviceAuthStandIn {
  /** The "MCP URL" whose protected-resource metadata names this server as its issuer. */
  readonly mcpUrl: string;
  readonly issuer: string;
  readonly deviceRequests: URLSearchParams[];
  readonly tokenRequests: URLSearchParams[];
  close(): Promise<void>;
}

export const DEVICE_CODE = 'device-code-that-must-never-be-printed';
export const USER_CODE = 'BCDF-GHJK';
export const ACCESS_TOKEN = 'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJzdGFuZC1pbiJ9.c3RhbmQtaW4tc2lnbmF0dXJl';
export const REFRESH_TOKEN = 'stand-in-refresh-token-never-printed';

export async function startDeviceAuthStandIn(answers: readonly string[]): Promise<DeviceAuthStandIn> {
  const deviceRequests: URLSearchParams[] = [];
  const tokenRequests: URLSearchParams[] = [];
  let issuer = '';
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
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
        deviceRequests.push(new URLSearchParams(body));
        return json(200, {
          device_code: DEVICE_CODE,
          user_code: USER_CODE,
          verification_uri: `${issuer}/device`,
          verification_uri_complete: `${issuer}/device?user_code=${USER_CODE}`,
          expires_in: 600,
          interval: 1,
        });
      }
      if (req.url === '/token' && req.method === 'POST') {
        tokenRequests.push(new URLSearchParams(body));
        const answer = answers[Math.min(tokenRequests.length, answers.length) - 1];
        if (answer === 'tokens') return json(200, { access_token: ACCESS_TOKEN, refresh_token: REFRESH_TOKEN, token_type: 'Bearer', expires_in: 3600, scope: 'mcp:read mcp:write' });
        if (answer === 'unavailable') return json(503, { error: 'temporarily_unavailable', error_description: 'the database is down' });
        return json(400, { error: answer });
      }
      json(404, { error: 'not_found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    mcpUrl: `${issuer}/mcp`,
    issuer,
    deviceRequests,
    tokenRequests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
