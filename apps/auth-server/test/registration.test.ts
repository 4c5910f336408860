import { FormBrowser } from './support/form-browser.js';
import { aUser, authorizeCode, exchange } from './support/flow.js';
import { startAuthServer, type AuthHarness } from './support/harness.js';
import { register } from './support/oauth-client.js';

let auth: AuthHarness;
beforeAll(async () => {
  auth = await startAuthServer();
});
afterAll(() => auth.close());

const both = { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] };

/** Registration bodies as the real clients send them (client names and ports vary). */
const realClients: Record<string, { body: Record<string, unknown>; use: string }> = {
  'Claude Code': {
    body: { client_name: 'Claude Code (components)', redirect_uris: ['http://localhost:54212/callback'], ...both, token_endpoint_auth_method: 'none', scope: 'mcp:read mcp:write' },
    use: 'http://localhost:54212/callback',
  },
  Cursor: {
    body: { client_name: 'Cursor', redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback'], ...both, token_endpoint_auth_method: 'none' },
    use: 'cursor://anysphere.cursor-mcp/oauth/callback',
  },
  'VS Code (fixed port)': {
    body: { client_name: 'Visual Studio Code', redirect_uris: ['http://127.0.0.1:33418/', 'https://vscode.dev/redirect'], ...both, token_endpoint_auth_method: 'none' },
    use: 'http://127.0.0.1:33418/',
  },
  'VS Code (random port)': {
    body: { client_name: 'Visual Studio Code', redirect_uris: ['http://127.0.0.1:33418/', 'https://vscode.dev/redirect'], ...both, token_endpoint_auth_method: 'none' },
    use: 'http://127.0.0.1:61932/',
  },
  'claude.ai': {
    body: { client_name: 'claudeai', redirect_uris: ['https://claude.ai/api/mcp/auth_callback'], ...both, token_endpoint_auth_method: 'none', scope: 'claudeai' },
    use: 'https://claude.ai/api/mcp/auth_callback',
  },
  'mcp-remote': {
    body: {
      client_name: 'MCP CLI Proxy',
      redirect_uris: ['http://localhost:3334/oauth/callback'],
      application_type: 'native',
      ...both,
      token_endpoint_auth_method: 'none',
      client_uri: 'https://github.com/modelcontextprotocol/mcp-cli',
      software_id: '2e6dc280-f3c3-4e01-99a7-8181dbd1d23d',
      software_version: '0.15.1',
    },
    use: 'http://localhost:3334/oauth/callback',
  },
};

test.each(Object.entries(realClients))('%s registers and completes an authorization', async (_name, { body, use }) => {
  const { status, json: client } = await register(auth.issuer, body);
  expect(status).toBe(201);
  expect(client).toMatchObject({ client_id: expect.any(String), token_endpoint_auth_method: 'none', redirect_uris: body.redirect_uris });
  expect(client.client_secret).toBeUndefined();

  const flow = await authorizeCode(new FormBrowser(), auth, client, await aUser(auth), { redirect_uri: use });
  expect(flow.callback.href.startsWith(use)).toBe(true);
  expect(flow.callback.searchParams.get('code')).toEqual(expect.any(String));
  const tokens = await exchange(auth, client, flow);
  expect(tokens.status).toBe(200);
  expect(tokens.json.refresh_token).toEqual(expect.any(String));
});

test('loopback and app-scheme clients become native; https-only clients stay web', async () => {
  expect((await register(auth.issuer, realClients['Claude Code']!.body)).json.application_type).toBe('native');
  expect((await register(auth.issuer, realClients.Cursor!.body)).json.application_type).toBe('native');
  expect((await register(auth.issuer, realClients['claude.ai']!.body)).json.application_type).toBe('web');
});

test('unknown registered scopes are dropped, known ones kept', async () => {
  expect((await register(auth.issuer, realClients['claude.ai']!.body)).json.scope).toBeUndefined();
  expect((await register(auth.issuer, { ...realClients['Claude Code']!.body, scope: 'mcp:read profile' })).json.scope).toBe('mcp:read');
});

test('a confidential client gets a secret', async () => {
  const { status, json } = await register(auth.issuer, { ...realClients['claude.ai']!.body, token_endpoint_auth_method: 'client_secret_post' });
  expect(status).toBe(201);
  expect(json.client_secret).toEqual(expect.any(String));
});

test.each([
  ['javascript:', 'javascript:alert(1)'],
  ['data:', 'data:text/html,<script>alert(1)</script>'],
  ['a fragment', 'https://app.example.com/callback#x'],
  ['plain http to a non-loopback host', 'http://app.example.com/callback'],
  ['plain http to a private address', 'http://192.168.1.10:8080/callback'],
])('refuses a redirect URI with %s', async (_what, uri) => {
  const { status, json } = await register(auth.issuer, { redirect_uris: [uri], ...both, token_endpoint_auth_method: 'none' });
  expect(status).toBe(400);
  expect(json.error).toBe('invalid_redirect_uri');
});

test('a native client may use any loopback port, but not another host or path', async () => {
  const { json: client } = await register(auth.issuer, realClients['Claude Code']!.body);
  const user = await aUser(auth);
  const other = await authorizeCode(new FormBrowser(), auth, client, user, { redirect_uri: 'http://localhost:1234/callback' });
  expect(other.callback.searchParams.get('code')).toEqual(expect.any(String));

  for (const uri of ['http://localhost:1234/elsewhere', 'http://127.0.0.1:54212/callback']) {
    const query = new URLSearchParams({ client_id: client.client_id, response_type: 'code', redirect_uri: uri, code_challenge: 'x'.repeat(43), code_challenge_method: 'S256' });
    const res = await fetch(`${auth.issuer}/authorize?${query.toString()}`, { redirect: 'manual' });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('redirect_uri');
  }
});

test('the registration endpoint answers browsers (CORS)', async () => {
  const res = await fetch(`${auth.issuer}/register`, { method: 'OPTIONS', headers: { origin: 'https://inspector.example', 'access-control-request-method': 'POST' } });
  expect(res.status).toBe(204);
  expect(res.headers.get('access-control-allow-origin')).toBe('*');
});

test('registration is rate-limited per client network', async () => {
  const limited = await startAuthServer({
    config: { throttle: { ...auth.config.throttle, registrationPerNetwork: { attempts: 3, windowSeconds: 3600 } } },
  });
  try {
    for (let i = 0; i < 3; i += 1) expect((await register(limited.issuer, realClients.Cursor!.body)).status).toBe(201);
    const res = await fetch(`${limited.issuer}/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(realClients.Cursor!.body) });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await res.json()) as { error: string }).error).toBe('too_many_requests');
  } finally {
    await limited.close();
  }
});
