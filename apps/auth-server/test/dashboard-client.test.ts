import { FormBrowser } from './support/form-browser.js';
import { aUser, PASSWORD } from './support/flow.js';
import { startAuthServer, type AuthHarness } from './support/harness.js';
import { aPublicClient, authorizeUrl, decodeJwt, pkce } from './support/oauth-client.js';
import { authorizeCode } from './support/flow.js';

/*
 * The dashboard (apps/dashboard) is a configured confidential client: first-party,
 * so signing in to it shows no consent page, and it is not one of the user's
 * "connected applications".
 */
const dashboard = { clientId: 'dashboard-test', clientSecret: 'dashboard-test-secret-of-at-least-32-chars', url: 'http://localhost:4399' };
let auth: AuthHarness;

beforeAll(async () => {
  auth = await startAuthServer({ config: { dashboard } });
});
afterAll(async () => {
  await auth?.close();
});

const basic = `Basic ${Buffer.from(`${dashboard.clientId}:${dashboard.clientSecret}`).toString('base64')}`;

async function signInToDashboard(browser: FormBrowser, email: string) {
  const { verifier, challenge } = pkce();
  const start = authorizeUrl(auth.issuer, {
    client_id: dashboard.clientId,
    response_type: 'code',
    redirect_uri: `${dashboard.url}/auth/callback`,
    scope: 'openid',
    state: 'dash-state',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  let page = await browser.open(start);
  if (/\/login"/.test(page.html)) page = await browser.submit(page, { email, password: PASSWORD }, { action: /\/login$/ });
  return { page, verifier };
}

it('signs in without a consent page and exchanges the code with the client secret (id_token, no MCP access)', async () => {
  const user = await aUser(auth);
  const browser = new FormBrowser();
  const { page, verifier } = await signInToDashboard(browser, user.email);
  const callback = new URL(page.url);
  expect(`${callback.origin}${callback.pathname}`).toBe(`${dashboard.url}/auth/callback`);
  expect(callback.searchParams.get('state')).toBe('dash-state');
  const code = callback.searchParams.get('code') ?? '';

  const body = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: `${dashboard.url}/auth/callback`, code_verifier: verifier });
  const withoutSecret = await fetch(`${auth.issuer}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ ...Object.fromEntries(body), client_id: dashboard.clientId }) });
  expect(withoutSecret.status).toBe(401);

  const res = await fetch(`${auth.issuer}/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic }, body });
  const json = (await res.json()) as { id_token?: string; access_token?: string; scope?: string };
  expect(res.status).toBe(200);
  expect(decodeJwt(json.id_token ?? '').payload).toMatchObject({ sub: user.id, aud: dashboard.clientId, iss: auth.issuer });
  expect(json.scope).toBe('openid');
  if (json.access_token !== undefined && json.access_token.split('.').length === 3) {
    expect(decodeJwt(json.access_token).payload.aud).not.toBe(auth.config.mcpResourceUrl);
  }

  // A second sign-in in the same browser goes straight back, again without consent.
  const again = await signInToDashboard(browser, user.email);
  expect(new URL(again.page.url).searchParams.get('code')).toBeTruthy();

  // /account lists the applications the user connected, not the dashboard.
  const account = await browser.open(`${auth.issuer}/account`);
  expect(account.html).toContain('No application has access to your account.');
});

it('still asks for consent for a registered client, which /account then lists and revokes', async () => {
  const user = await aUser(auth);
  const browser = new FormBrowser();
  await signInToDashboard(browser, user.email);
  const client = await aPublicClient(auth.issuer, { client_name: 'Some MCP client' });
  const flow = await authorizeCode(browser, auth, client, user);
  expect(flow.callback.searchParams.get('code')).toBeTruthy();
  const account = await browser.open(`${auth.issuer}/account`);
  expect(account.html).toContain('Some MCP client');
  expect(account.html).not.toContain('Component dashboard');
  const revoked = await browser.submit(account, {}, { action: /\/revoke$/ });
  expect(revoked.html).toContain('Access revoked');
  expect(revoked.html).toContain('No application has access to your account.');
});

it('refuses a redirect URI other than the configured one', async () => {
  const { challenge } = pkce();
  const res = await fetch(
    authorizeUrl(auth.issuer, { client_id: dashboard.clientId, response_type: 'code', redirect_uri: 'http://evil.example/cb', scope: 'openid', code_challenge: challenge, code_challenge_method: 'S256' }),
    { redirect: 'manual' },
  );
  expect(res.status).toBe(400);
  expect(await res.text()).toContain('redirect_uri');
});
