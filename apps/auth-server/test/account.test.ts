import { FormBrowser } from './support/form-browser.js';
import { aUser, authorizeCode, exchange, PASSWORD } from './support/flow.js';
import { createTestDatabase, type TestDatabase } from '@cp/db/testing';
import { databaseStorage, startAuthServer, TEST_PASSWORD_COST, type AuthHarness } from './support/harness.js';
import { aPublicClient, authorizeUrl, decodeJwt, pkce, tokenRequest } from './support/oauth-client.js';

// Grants are listed and revoked in storage: a real database.
let db: TestDatabase;
let auth: AuthHarness;
beforeAll(async () => {
  db = await createTestDatabase();
  auth = await startAuthServer(databaseStorage(db));
}, 120_000);
afterAll(async () => {
  await auth?.close();
  await db?.close();
});

const signIn = async (browser: FormBrowser, email: string) => {
  const page = await browser.open(`${auth.issuer}/login`);
  return browser.submit(page, { email, password: PASSWORD });
};

test('sign-up creates the user with a personal organization, signed in on /account', async () => {
  const browser = new FormBrowser();
  const form = await browser.open(`${auth.issuer}/signup`);
  expect(form.html).toContain('name="email"');
  expect(form.html).toContain('name="password"');
  const page = await browser.submit(form, { email: 'New.Person@example.com', password: PASSWORD });
  expect(page.url).toBe(`${auth.issuer}/account`);
  expect(page.html).toContain('New.Person@example.com');
  expect(page.html).toContain('No application has access');

  const user = await auth.domain.repos.users.findByEmail('new.person@example.com');
  expect(user).not.toBeNull();
  const organizations = await auth.domain.repos.organizations.listForUser(user!.id);
  expect(organizations.map((org) => org.id)).toEqual([user!.defaultOrganizationId]);
  const environments = await auth.domain.repos.environments.listForOrganization(user!.defaultOrganizationId);
  expect(environments.map((env) => env.name)).toEqual(['prod', 'staging']);
  // Hashed at the cost the app was given (production: PASSWORD_COST).
  const { logN, r, p } = TEST_PASSWORD_COST;
  expect(await auth.credentials.findPasswordHash(user!.id)).toMatch(new RegExp(`^scrypt\\$${logN}\\$${r}\\$${p}\\$`));
});

test('sign-up refuses a short password, a bad email and a taken email, and keeps what was typed', async () => {
  const browser = new FormBrowser();
  const form = await browser.open(`${auth.issuer}/signup`);
  const short = await browser.submit(form, { email: 'short@example.com', password: 'short' });
  expect(short.status).toBe(400);
  expect(short.html).toContain('at least 8 characters');
  expect(short.html).toContain('value="short@example.com"');
  expect((await browser.submit(form, { email: 'not-an-email', password: PASSWORD })).html).toContain('Enter an email address');
  const existing = await aUser(auth);
  expect((await browser.submit(form, { email: existing.email.toUpperCase(), password: PASSWORD })).html).toContain('already exists');
});

test('the sign-up link on an authorization page comes back to the same authorization, signed in', async () => {
  const client = await aPublicClient(auth.issuer);
  const browser = new FormBrowser();
  const { challenge } = pkce();
  const login = await browser.open(
    authorizeUrl(auth.issuer, { client_id: client.client_id, response_type: 'code', redirect_uri: client.redirect_uris[0], scope: 'mcp:read', code_challenge: challenge, code_challenge_method: 'S256' }),
  );
  const href = /href="(\/signup\?interaction=[^"]+)"/.exec(login.html)?.[1];
  expect(href).toBeDefined();
  const form = await browser.open(new URL(href!.replace(/&amp;/g, '&'), auth.issuer).href);
  const consent = await browser.submit(form, { email: `via-link-${Date.now()}@example.com`, password: PASSWORD });
  expect(consent.html).toContain('Allow Test client to use your account?');
  const done = await browser.submit(consent, { decision: 'allow' });
  expect(new URL(done.url).searchParams.get('code')).toEqual(expect.any(String));
});

test('consent names the client, its redirect host and each scope in plain words', async () => {
  const client = await aPublicClient(auth.issuer, { client_name: 'Cursor <script>', redirect_uris: ['cursor://anysphere.cursor-mcp/oauth/callback'] });
  const user = await aUser(auth);
  const browser = new FormBrowser();
  const { challenge } = pkce();
  let page = await browser.open(
    authorizeUrl(auth.issuer, { client_id: client.client_id, response_type: 'code', redirect_uri: client.redirect_uris[0], scope: 'mcp:read mcp:write', code_challenge: challenge, code_challenge_method: 'S256' }),
  );
  page = await browser.submit(page, { email: user.email, password: PASSWORD });
  expect(page.html).toContain('Cursor &lt;script&gt;');
  expect(page.html).not.toContain('<script>');
  expect(page.html).toContain('cursor://anysphere.cursor-mcp');
  expect(page.html).toContain('See your organizations, components, their versions and releases');
  expect(page.html).toContain('Upload components, change their tags and publish releases');
  expect(page.html).toMatch(/<button[^>]*>Allow<\/button>/);
  expect(page.html).toMatch(/<button[^>]*>Deny<\/button>/);
  expect(page.headers.get('x-frame-options')).toBe('DENY');
  expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
});

test('/account lists connected applications and Revoke deletes the grant and its tokens', async () => {
  const user = await aUser(auth);
  const client = await aPublicClient(auth.issuer, { client_name: 'Claude Code' });
  const browser = new FormBrowser();
  const flow = await authorizeCode(browser, auth, client, user, { scope: 'mcp:read' });
  const { json: tokens } = await exchange(auth, client, flow);
  const grantId = decodeJwt(tokens.access_token).payload.grantId as string;

  // Signed in during the authorization, so /account needs no second sign-in.
  const account = await browser.open(`${auth.issuer}/account`);
  expect(account.html).toContain('Claude Code');
  expect(account.html).toContain('See your organizations');
  expect(account.html).not.toContain('Upload components');
  expect(account.html).toMatch(/<button[^>]*>Revoke<\/button>/);

  const after = await browser.submit(account, {}, { action: new RegExp(`/account/applications/${grantId}/revoke$`) });
  expect(after.url).toBe(`${auth.issuer}/account?notice=revoked`);
  expect(after.html).toContain('Access revoked');
  expect(after.html).not.toContain('Claude Code');
  expect(await auth.oidc.adapterFor('Grant').find(grantId)).toBeUndefined();
  const refreshed = await tokenRequest(auth.issuer, { grant_type: 'refresh_token', client_id: client.client_id, refresh_token: tokens.refresh_token });
  expect(refreshed.json.error).toBe('invalid_grant');
  // Recorded in the user's organization, in the revocation's transaction, with the name shown.
  const recorded = await db.prisma.auditEvent.findMany({ where: { actorId: user.id, kind: 'application.revoked' } });
  expect(recorded.map((row) => [row.organizationId, row.kind, row.details])).toEqual([
    [user.defaultOrganizationId, 'application.revoked', { clientId: client.client_id, clientName: 'Claude Code' }],
  ]);
});

test("revoking another user's grant is not found", async () => {
  const owner = await aUser(auth);
  const client = await aPublicClient(auth.issuer);
  const flow = await authorizeCode(new FormBrowser(), auth, client, owner);
  const grantId = decodeJwt((await exchange(auth, client, flow)).json.access_token).payload.grantId as string;

  const intruder = new FormBrowser();
  const account = await signIn(intruder, (await aUser(auth)).email);
  const recordedBefore = await db.prisma.auditEvent.count();
  const forged = account.html.replace('action="/logout"', `action="/account/applications/${grantId}/revoke"`);
  const res = await intruder.submit({ ...account, html: forged }, {}, { action: /revoke$/ });
  expect(res.status).toBe(404);
  expect(await auth.oidc.adapterFor('Grant').find(grantId)).toBeDefined();
  expect(await db.prisma.auditEvent.count()).toBe(recordedBefore);
});

test('sign in and sign out on the account pages', async () => {
  const user = await aUser(auth);
  const browser = new FormBrowser();
  expect((await browser.open(`${auth.issuer}/account`)).url).toBe(`${auth.issuer}/login`);
  const wrong = await browser.submit(await browser.open(`${auth.issuer}/login`), { email: user.email, password: 'nope nope nope' });
  expect(wrong.status).toBe(401);
  const account = await signIn(browser, user.email);
  expect(account.url).toBe(`${auth.issuer}/account`);
  const signedOut = await browser.submit(account, {}, { action: /\/logout$/ });
  expect(signedOut.html).toContain('You are signed out');
  expect((await browser.open(`${auth.issuer}/account`)).url).toBe(`${auth.issuer}/login`);
});

test('signing out does not disconnect applications', async () => {
  const user = await aUser(auth);
  const client = await aPublicClient(auth.issuer);
  const browser = new FormBrowser();
  const { json: tokens } = await exchange(auth, client, await authorizeCode(browser, auth, client, user));
  const account = await browser.open(`${auth.issuer}/account`);
  await browser.submit(account, {}, { action: /\/logout$/ });
  const refreshed = await tokenRequest(auth.issuer, { grant_type: 'refresh_token', client_id: client.client_id, refresh_token: tokens.refresh_token });
  expect(refreshed.status).toBe(200);
});

test('sign-up can be disabled', async () => {
  const closed = await startAuthServer({ config: { signupEnabled: false } });
  try {
    const browser = new FormBrowser();
    expect((await browser.open(`${closed.issuer}/signup`)).status).toBe(404);
    expect((await browser.open(`${closed.issuer}/login`)).html).not.toContain('/signup');
  } finally {
    await closed.close();
  }
});

test('forms without their CSRF token: sign-up, sign-in, sign-out and revoke', async () => {
  const browser = new FormBrowser();
  const signup = await browser.open(`${auth.issuer}/signup`);
  expect((await browser.submit(signup, { email: 'csrf@example.com', password: PASSWORD }, { omit: ['csrf_token'] })).status).toBe(403);
  expect(await auth.domain.repos.users.findByEmail('csrf@example.com')).toBeNull();
  const login = await browser.open(`${auth.issuer}/login`);
  const user = await aUser(auth);
  expect((await browser.submit(login, { email: user.email, password: PASSWORD }, { omit: ['csrf_token'] })).status).toBe(403);
  const account = await signIn(browser, user.email);
  expect((await browser.submit(account, {}, { action: /\/logout$/, omit: ['csrf_token'] })).status).toBe(403);
  // A token from another browser does not work either.
  const other = new FormBrowser();
  const stolen = /name="csrf_token" value="([^"]+)"/.exec((await other.open(`${auth.issuer}/login`)).html)?.[1];
  expect((await browser.submit(account, { csrf_token: stolen! }, { action: /\/logout$/, omit: ['csrf_token'] })).status).toBe(403);
});
