/* eslint-disable @typescript-eslint/no-explicit-any -- tool results are JSON, checked by assertions */
import { auth as sdkAuth, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createTestDatabase, type TestDatabase } from '@cp/db/testing';
import { FormBrowser } from './support/form-browser.js';
import { PASSWORD } from './support/flow.js';
import { startStack, type Stack } from './support/mcp-stack.js';
import { RecordingProvider } from './support/sdk-provider.js';

let db: TestDatabase;
let stack: Stack;
beforeAll(async () => {
  db = await createTestDatabase();
  stack = await startStack(db);
}, 120_000);
afterAll(async () => {
  await stack?.close();
  await db?.close();
});

const connect = async (provider: RecordingProvider): Promise<Client> => {
  const client = new Client({ name: 'auth-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { authProvider: provider }));
  return client;
};

const whoami = async (client: Client): Promise<any> => (await client.callTool({ name: 'whoami', arguments: {} })).structuredContent;

test('the SDK client runs the whole OAuth flow against the auth and MCP servers', async () => {
  const provider = new RecordingProvider('http://localhost:45123/callback');
  const email = `sdk-${Date.now()}@example.com`;

  // 401 -> protected resource metadata -> authorization server metadata -> registration -> authorize.
  await expect(connect(provider)).rejects.toBeInstanceOf(UnauthorizedError);
  expect(provider.client?.client_id).toEqual(expect.any(String));
  const authorizationUrl = provider.authorizationUrl!;
  expect(authorizationUrl.origin).toBe(stack.auth.issuer);
  expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
  expect(authorizationUrl.searchParams.get('resource')).toBe(stack.mcpUrl);

  // The person: sign up from the sign-in page, then allow.
  const browser = new FormBrowser();
  const login = await browser.open(authorizationUrl.href);
  const signupHref = /href="(\/signup\?interaction=[^"]+)"/.exec(login.html)![1]!;
  const consent = await browser.submit(await browser.open(new URL(signupHref, stack.auth.issuer).href), { email, password: PASSWORD });
  expect(consent.html).toContain('Allow SDK test client to use your account?');
  // A registered client's consent page, unchanged by client metadata documents.
  expect(consent.html).toContain('The application registered itself and its name is not verified.');
  expect(consent.html).not.toContain('identified by its web address');
  const callback = new URL((await browser.submit(consent, { decision: 'allow' })).url);
  expect(callback.origin + callback.pathname).toBe(provider.redirectUrl);
  expect(callback.searchParams.get('iss')).toBe(stack.auth.issuer);

  // Code exchange with PKCE, then tool calls as the new user.
  const transport = new StreamableHTTPClientTransport(new URL(stack.mcpUrl), { authProvider: provider });
  await transport.finishAuth(callback.searchParams.get('code')!);
  expect(provider.saved).toMatchObject({ token_type: 'Bearer', scope: 'mcp:read mcp:write', refresh_token: expect.any(String) });
  const client = await connect(provider);
  expect(await whoami(client)).toMatchObject({ authenticated: true, email, scope: 'mcp:read mcp:write' });
  const organizations: any = (await client.callTool({ name: 'list_organizations', arguments: {} })).structuredContent;
  expect(organizations.count).toBe(1);

  // Refresh: the SDK trades its refresh token; the old access token is replaced and the new one works.
  const before = provider.saved!;
  expect(await sdkAuth(provider, { serverUrl: stack.mcpUrl })).toBe('AUTHORIZED');
  expect(provider.saved!.access_token).not.toBe(before.access_token);
  expect(provider.saved!.refresh_token).not.toBe(before.refresh_token);
  expect(await whoami(await connect(provider))).toMatchObject({ email });

  // Revoke in /account (same browser, still signed in): tool calls fail within 30 s.
  const account = await browser.open(`${stack.auth.issuer}/account`);
  expect(account.html).toContain('SDK test client');
  await browser.submit(account, {}, { action: /\/revoke$/ });
  const revokedAt = Date.now();
  const rawCall = () =>
    fetch(stack.mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${provider.saved!.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } }),
    });
  let status = (await rawCall()).status;
  while (status === 200 && Date.now() - revokedAt < 30_000) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    status = (await rawCall()).status;
  }
  expect(status).toBe(401);
  expect(Date.now() - revokedAt).toBeLessThan(30_000);
  await client.close();
}, 60_000);

test('a read-only grant calling a write tool gets 403 insufficient_scope from the MCP server', async () => {
  const provider = new RecordingProvider('http://localhost:45124/callback');
  const email = `reader-${Date.now()}@example.com`;
  const scoped = await sdkAuth(provider, { serverUrl: stack.mcpUrl, scope: 'mcp:read' });
  expect(scoped).toBe('REDIRECT');
  const browser = new FormBrowser();
  const login = await browser.open(provider.authorizationUrl!.href);
  const signupHref = /href="(\/signup\?interaction=[^"]+)"/.exec(login.html)![1]!;
  const consent = await browser.submit(await browser.open(new URL(signupHref, stack.auth.issuer).href), { email, password: PASSWORD });
  expect(consent.html).not.toContain('Upload components');
  const code = new URL((await browser.submit(consent, { decision: 'allow' })).url).searchParams.get('code')!;
  expect(await sdkAuth(provider, { serverUrl: stack.mcpUrl, authorizationCode: code })).toBe('AUTHORIZED');
  expect(provider.saved!.scope).toBe('mcp:read');

  const res = await fetch(stack.mcpUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${provider.saved!.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'edit_component_tags', arguments: { componentId: '00000000-0000-4000-8000-000000000000', add: ['x'] } },
    }),
  });
  expect(res.status).toBe(403);
  expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
  expect(await whoami(await connect(provider))).toMatchObject({ email, scope: 'mcp:read' });
});
