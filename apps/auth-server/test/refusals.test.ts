import { defaultThrottle } from '../src/config.js';
import { FormBrowser } from './support/form-browser.js';
import { aUser, authorizeCode, exchange, PASSWORD } from './support/flow.js';
import { createTestDatabase, type TestDatabase } from '@cp/db/testing';
import { databaseStorage, startAuthServer, type AuthHarness } from './support/harness.js';
import { aPublicClient, authorizeUrl, decodeJwt, pkce, tokenRequest, type RegisteredClient } from './support/oauth-client.js';

// Storage matters here (atomic consume, grant revocation): a real database.
let db: TestDatabase;
let auth: AuthHarness;
let client: RegisteredClient;
beforeAll(async () => {
  db = await createTestDatabase();
  auth = await startAuthServer({
    ...databaseStorage(db),
    config: { throttle: { ...defaultThrottle, loginPerAccountNetwork: { attempts: 5, windowSeconds: 900 } } },
  });
  client = await aPublicClient(auth.issuer);
}, 120_000);
afterAll(async () => {
  await auth?.close();
  await db?.close();
});

const authorizeParams = (overrides: Record<string, string | undefined> = {}) => ({
  client_id: client.client_id,
  response_type: 'code',
  redirect_uri: client.redirect_uris[0],
  scope: 'mcp:read mcp:write',
  code_challenge: pkce().challenge,
  code_challenge_method: 'S256',
  ...overrides,
});

const refresh = (refreshToken: string) =>
  tokenRequest(auth.issuer, { grant_type: 'refresh_token', client_id: client.client_id, refresh_token: refreshToken });

test('an unregistered redirect_uri gets an error page, never a redirect', async () => {
  const res = await fetch(authorizeUrl(auth.issuer, authorizeParams({ redirect_uri: 'http://localhost:33418/other' })), { redirect: 'manual' });
  expect(res.status).toBe(400);
  expect(res.headers.get('location')).toBeNull();
  expect(await res.text()).toContain('redirect_uri');
});

test('an authorization request without PKCE is refused', async () => {
  const res = await fetch(authorizeUrl(auth.issuer, authorizeParams({ code_challenge: undefined, code_challenge_method: undefined })), { redirect: 'manual' });
  const location = new URL(res.headers.get('location')!);
  expect(location.searchParams.get('error')).toBe('invalid_request');
  expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
});

test('plain PKCE is refused', async () => {
  const res = await fetch(authorizeUrl(auth.issuer, authorizeParams({ code_challenge_method: 'plain' })), { redirect: 'manual' });
  expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
});

test('a wrong code_verifier is refused', async () => {
  const flow = await authorizeCode(new FormBrowser(), auth, client, await aUser(auth));
  const res = await exchange(auth, client, flow, { code_verifier: pkce().verifier });
  expect(res.status).toBe(400);
  expect(res.json.error).toBe('invalid_grant');
});

test('a code used twice is refused, and the tokens from its first use are revoked', async () => {
  const flow = await authorizeCode(new FormBrowser(), auth, client, await aUser(auth));
  const first = await exchange(auth, client, flow);
  expect(first.status).toBe(200);
  const second = await exchange(auth, client, flow);
  expect(second.status).toBe(400);
  expect(second.json.error).toBe('invalid_grant');
  expect((await refresh(first.json.refresh_token)).json.error).toBe('invalid_grant');
});

test('concurrent uses of one code: exactly one succeeds', async () => {
  const flow = await authorizeCode(new FormBrowser(), auth, client, await aUser(auth));
  const results = await Promise.all([exchange(auth, client, flow), exchange(auth, client, flow), exchange(auth, client, flow)]);
  expect(results.filter((res) => res.status === 200)).toHaveLength(1);
});

test('a foreign resource is refused at the authorization and token endpoints', async () => {
  const res = await fetch(authorizeUrl(auth.issuer, authorizeParams({ resource: 'https://elsewhere.example/mcp' })), { redirect: 'manual' });
  expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_target');

  const flow = await authorizeCode(new FormBrowser(), auth, client, await aUser(auth));
  const token = await exchange(auth, client, flow, { resource: 'https://elsewhere.example/mcp' });
  expect(token.status).toBe(400);
  expect(token.json.error).toBe('invalid_target');
});

test('without resource the token is for the MCP server', async () => {
  const flow = await authorizeCode(new FormBrowser(), auth, client, await aUser(auth), { resource: undefined });
  const tokens = await exchange(auth, client, flow);
  expect(decodeJwt(tokens.json.access_token).payload.aud).toBe(auth.config.mcpResourceUrl);
});

test('a rotated refresh token presented again is refused and ends the grant', async () => {
  const flow = await authorizeCode(new FormBrowser(), auth, client, await aUser(auth));
  const { json: tokens } = await exchange(auth, client, flow);
  const rotated = await refresh(tokens.refresh_token);
  expect(rotated.status).toBe(200);
  const reused = await refresh(tokens.refresh_token);
  expect(reused.status).toBe(400);
  expect(reused.json.error).toBe('invalid_grant');
  // The newest refresh token went with the grant: whoever replayed the old one gets nothing.
  expect((await refresh(rotated.json.refresh_token)).json.error).toBe('invalid_grant');
  const grantId = decodeJwt(rotated.json.access_token).payload.grantId as string;
  expect(await auth.oidc.adapterFor('Grant').find(grantId)).toBeUndefined();
});

test('scopes the client did not ask for are never granted', async () => {
  const flow = await authorizeCode(new FormBrowser(), auth, client, await aUser(auth), { scope: 'mcp:read' });
  const { json } = await exchange(auth, client, flow);
  expect(json.scope).toBe('mcp:read');
  expect(decodeJwt(json.access_token).payload.scope).toBe('mcp:read');
  const widened = await tokenRequest(auth.issuer, { grant_type: 'refresh_token', client_id: client.client_id, refresh_token: json.refresh_token, scope: 'mcp:read mcp:write' });
  expect(widened.json.error).toBe('invalid_scope');
});

test('a client registered for mcp:read cannot ask for mcp:write', async () => {
  const readOnly = await aPublicClient(auth.issuer, { scope: 'mcp:read' });
  const res = await fetch(authorizeUrl(auth.issuer, { ...authorizeParams({ client_id: readOnly.client_id }) }), { redirect: 'manual' });
  expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_scope');
});

test('without scope the request asks for the MCP scopes the client registered', async () => {
  const readOnly = await aPublicClient(auth.issuer, { scope: 'mcp:read' });
  const flow = await authorizeCode(new FormBrowser(), auth, readOnly, await aUser(auth), { scope: undefined });
  expect((await exchange(auth, readOnly, flow)).json.scope).toBe('mcp:read');
});

test('Deny returns access_denied to the client', async () => {
  const user = await aUser(auth);
  const browser = new FormBrowser();
  let page = await browser.open(authorizeUrl(auth.issuer, authorizeParams({ state: 's' })));
  page = await browser.submit(page, { email: user.email, password: PASSWORD });
  expect(page.html).toContain('Allow');
  page = await browser.submit(page, { decision: 'deny' });
  const callback = new URL(page.url);
  expect(callback.searchParams.get('error')).toBe('access_denied');
  expect(callback.searchParams.get('state')).toBe('s');
  expect(callback.searchParams.get('iss')).toBe(auth.issuer);
});

test.each([
  ['sign-in', /\/login$/, (page: string) => page.includes('name="password"')],
  ['consent', /\/consent$/, (page: string) => page.includes('name="decision"')],
])('a %s form without its CSRF token is refused', async (_name, action, isPage) => {
  const user = await aUser(auth);
  const browser = new FormBrowser();
  let page = await browser.open(authorizeUrl(auth.issuer, authorizeParams()));
  if (action.source.includes('consent')) page = await browser.submit(page, { email: user.email, password: PASSWORD });
  expect(isPage(page.html)).toBe(true);
  const refused = await browser.submit(page, { email: user.email, password: PASSWORD, decision: 'allow' }, { action, omit: ['csrf_token'] });
  expect(refused.status).toBe(403);
  const forged = await browser.submit(page, { email: user.email, password: PASSWORD, decision: 'allow', csrf_token: 'forged' }, { action, omit: ['csrf_token'] });
  expect(forged.status).toBe(403);
});

test('brute force: after 5 failures from one network the account is throttled there, even for the right password', async () => {
  const user = await aUser(auth);
  const browser = new FormBrowser();
  const page = await browser.open(authorizeUrl(auth.issuer, authorizeParams()));
  for (let i = 0; i < 5; i += 1) {
    const failed = await browser.submit(page, { email: user.email, password: `wrong-${i}` });
    expect(failed.status).toBe(401);
    expect(failed.html).toContain('The email or password is not right');
  }
  const throttled = await browser.submit(page, { email: user.email, password: PASSWORD });
  expect(throttled.status).toBe(429);
  expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(throttled.html).toContain('Too many attempts');
});

test('an unknown email fails exactly like a wrong password', async () => {
  const browser = new FormBrowser();
  const page = await browser.open(authorizeUrl(auth.issuer, authorizeParams()));
  const unknown = await browser.submit(page, { email: 'nobody@example.com', password: PASSWORD });
  const user = await aUser(auth);
  const wrong = await browser.submit(page, { email: user.email, password: 'not it at all' });
  expect(unknown.status).toBe(wrong.status);
  const message = (html: string) => /<p class="error"[^>]*>([^<]*)</.exec(html)?.[1];
  expect(message(unknown.html)).toBe(message(wrong.html));
});
