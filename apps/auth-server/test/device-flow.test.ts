import { setTimeout as sleep } from 'node:timers/promises';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { defaultCimd, defaultDeviceFlow, defaultThrottle } from '../src/config.js';
import { aDocument } from './support/cimd.js';
import { confirmDevice, deviceAuthorization, poll, pollUntilDecided, signInFirst } from './support/device-client.js';
import { DocumentServer } from './support/document-server.js';
import { FormBrowser } from './support/form-browser.js';
import { aUser } from './support/flow.js';
import { createTestDatabase, type TestDatabase } from '@cp/db/testing';
import { databaseStorage, startAuthServer, type AuthHarness } from './support/harness.js';
import { aPublicClient, decodeJwt, register, tokenRequest } from './support/oauth-client.js';

/*
 * Device login (RFC 8628) over real HTTP, on a real database (PGlite, or PostgreSQL with DATABASE_URL): the CLI's requests by hand, the person through
 * the HTML forms (FormBrowser), on the server's real clock. Servers that wait for a code
 * to expire or for an interval to pass get short ones through config (the contract's
 * 5 s and 600 s are checked on the default server), because oidc-provider and Redis
 * keep time with the real clock: an injected clock could not move them.
 */

const USER_CODE = /^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/;

let db: TestDatabase;
let standard: AuthHarness;
let quick: AuthHarness;
beforeAll(async () => {
  db = await createTestDatabase();
  standard = await startAuthServer(databaseStorage(db));
  // Every test here sends its code forms from 127.0.0.1: more than one network's budget (tested in throttling.test.ts).
  const throttle = { ...defaultThrottle, deviceCodeEntryPerNetwork: { attempts: 1000, windowSeconds: 900 } };
  quick = await startAuthServer({ ...databaseStorage(db), config: { throttle, deviceFlow: { ...defaultDeviceFlow, intervalSeconds: 1 } } });
}, 120_000);
afterAll(async () => {
  await standard?.close();
  await quick?.close();
  await db?.close();
});

test('the device authorization response has the contract shape, with interval 5 and a consonant XXXX-XXXX code', async () => {
  const { status, json } = await deviceAuthorization(standard.issuer);
  expect(status).toBe(200);
  expect(json).toEqual({
    device_code: expect.any(String),
    user_code: expect.stringMatching(USER_CODE),
    verification_uri: `${standard.issuer}/device`,
    verification_uri_complete: `${standard.issuer}/device?user_code=${json.user_code}`,
    expires_in: 600,
    interval: 5,
  });
  const metadata = (await (await fetch(`${standard.issuer}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
  expect(metadata.device_authorization_endpoint).toBe(`${standard.issuer}/device/auth`);
  expect(metadata.grant_types_supported).toContain('urn:ietf:params:oauth:grant-type:device_code');
});

test('the device is known by its name only: no address, no user agent', async () => {
  const { json } = await deviceAuthorization(standard.issuer, { device_name: '  cpc on build-box  ' });
  const stored = await standard.oidc.adapterFor('DeviceCode').findByUserCode(json.user_code.replace('-', ''));
  expect(stored?.deviceInfo).toEqual({ name: 'cpc on build-box' });
  expect(JSON.stringify(stored)).not.toMatch(/127\.0\.0\.1|node|undici/i);
});

test('device_name longer than 64 characters, or with a line break, is refused naming the parameter', async () => {
  const long = await deviceAuthorization(standard.issuer, { device_name: `cpc on ${'x'.repeat(60)}` });
  expect(long).toEqual({ status: 400, json: { error: 'invalid_request', error_description: 'device_name must be at most 64 characters once trimmed (got 67)' } });
  const broken = await deviceAuthorization(standard.issuer, { device_name: 'cpc on\nphish' });
  expect(broken.json).toEqual({ error: 'invalid_request', error_description: 'device_name must be printable text, without control characters or line breaks' });
});

test('whole flow, signed out: code, confirmation, sign-in, confirmation with the account; tokens for the MCP resource, listed as "cpc (command line)" in /account', async () => {
  const user = await aUser(quick);
  const { json: started } = await deviceAuthorization(quick.issuer);
  expect((await poll(quick.issuer, started.device_code)).json.error).toBe('authorization_pending');

  const browser = new FormBrowser();
  const entry = await browser.open(`${quick.issuer}/device`);
  expect(entry.html).toContain('<h1>Connect a device</h1>');
  const confirmation = await browser.submit(entry, { user_code: started.user_code.toLowerCase() }, { action: /\/device$/ });
  expect(confirmation.html).toContain('cpc on test-laptop');
  expect(confirmation.html).toContain(started.user_code);
  expect(confirmation.html).toContain('You will sign in, or create an account, next.');
  const signIn = await browser.submit(confirmation, { confirm: 'yes' }, { action: /\/device$/ });
  expect(signIn.url).toMatch(/\/interaction\//);
  const withAccount = await browser.submit(signIn, { email: user.email, password: 'correct horse battery staple' }, { action: /\/login$/ });
  expect(withAccount.html).toContain('cpc on test-laptop');
  expect(withAccount.html).toContain(`Signed in as <strong>${user.email}</strong>`);
  expect(withAccount.html).toMatch(/mcp:read[\s\S]*mcp:write/);
  const done = await browser.submit(withAccount, { decision: 'allow' }, { action: /\/consent$/ });
  expect(done.html).toContain('<h1>Device connected</h1>');

  const tokens = await pollUntilDecided(quick.issuer, started.device_code, 1);
  expect(tokens.status).toBe(200);
  expect(tokens.json).toMatchObject({ token_type: 'Bearer', scope: 'mcp:read mcp:write', refresh_token: expect.any(String) });
  const { payload } = await jwtVerify(tokens.json.access_token, createRemoteJWKSet(new URL(`${quick.issuer}/jwks`)), {
    issuer: quick.issuer,
    audience: quick.config.mcpResourceUrl,
  });
  expect(payload).toMatchObject({ sub: user.id, client_id: 'cpc', scope: 'mcp:read mcp:write', grantId: expect.any(String) });

  const refreshed = await tokenRequest(quick.issuer, { grant_type: 'refresh_token', client_id: 'cpc', refresh_token: tokens.json.refresh_token ?? '' });
  expect(refreshed.status).toBe(200);
  const account = await browser.open(`${quick.issuer}/account`);
  expect(account.html).toMatch(/<th scope="row">cpc \(command line\)<\/th>/);
  expect(account.html).toContain(`/account/applications/${String(payload.grantId)}/revoke`);
});

test('signed in first: confirming the code is the consent (no second page), and each device login gets a grant of its own', async () => {
  const user = await aUser(quick);
  const browser = new FormBrowser();
  await signInFirst(browser, quick.issuer, user);
  const grants: string[] = [];
  for (const device of ['cpc on laptop', 'cpc on desktop']) {
    const { json: started } = await deviceAuthorization(quick.issuer, { device_name: device, scope: 'mcp:read' });
    const entry = await browser.open(`${quick.issuer}/device`);
    const confirmation = await browser.submit(entry, { user_code: started.user_code }, { action: /\/device$/ });
    expect(confirmation.html).toContain(device);
    expect(confirmation.html).toContain(`Signed in as <strong>${user.email}</strong>`);
    const done = await browser.submit(confirmation, { confirm: 'yes' }, { action: /\/device$/ });
    expect(done.html).toContain('<h1>Device connected</h1>');
    const tokens = await pollUntilDecided(quick.issuer, started.device_code, 1);
    expect(tokens.json.scope).toBe('mcp:read');
    grants.push(String(decodeJwt(tokens.json.access_token).payload.grantId));
  }
  expect(new Set(grants).size).toBe(2);
  const listed = await quick.oidc.listGrants(user.id);
  expect(listed.filter((grant) => grant.clientId === 'cpc').map((grant) => grant.grantId).sort()).toEqual([...grants].sort());
});

test('without scope the login asks for both MCP scopes; a poll after the success is a replay: invalid_grant, and the grant is revoked', async () => {
  const user = await aUser(quick);
  const res = await fetch(`${quick.issuer}/device/auth`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ client_id: 'cpc' }).toString(),
  });
  const started = (await res.json()) as { device_code: string; user_code: string };
  const browser = new FormBrowser();
  const confirmation = await confirmDevice(browser, quick.issuer, started.user_code, user);
  expect(confirmation.html).toContain('<h1>Device connected</h1>');
  const tokens = await pollUntilDecided(quick.issuer, started.device_code, 1);
  expect(tokens.json.scope).toBe('mcp:read mcp:write');
  expect(await quick.oidc.listGrants(user.id)).toHaveLength(1);

  const replay = await pollUntilDecided(quick.issuer, started.device_code, 1);
  expect(replay).toEqual({ status: 400, json: { error: 'invalid_grant', error_description: 'grant request is invalid' } });
  expect(await quick.oidc.listGrants(user.id)).toEqual([]);
});

test('denied: the person sees "Device not connected" and the CLI gets access_denied', async () => {
  const user = await aUser(quick);
  const browser = new FormBrowser();
  const { json: signedOut } = await deviceAuthorization(quick.issuer);
  const page = await confirmDevice(browser, quick.issuer, signedOut.user_code, user, 'deny');
  expect(page.html).toContain('<h1>Device not connected</h1>');
  expect((await pollUntilDecided(quick.issuer, signedOut.device_code, 1)).json).toEqual({ error: 'access_denied', error_description: 'End-User aborted interaction' });

  // Denied on the confirmation shown after signing in.
  const { json: afterSignIn } = await deviceAuthorization(quick.issuer);
  const entry = await browser.open(`${quick.issuer}/device`);
  const confirmation = await browser.submit(entry, { user_code: afterSignIn.user_code }, { action: /\/device$/ });
  const signIn = await browser.submit(confirmation, { confirm: 'yes' }, { action: /\/device$/ });
  const withAccount = await browser.submit(signIn, { email: user.email, password: 'correct horse battery staple' }, { action: /\/login$/ });
  const denied = await browser.submit(withAccount, { decision: 'deny' }, { action: /\/consent$/ });
  expect(denied.html).toContain('<h1>Device not connected</h1>');
  const answer = await pollUntilDecided(quick.issuer, afterSignIn.device_code, 1);
  expect(answer.status).toBe(400);
  expect(answer.json.error).toBe('access_denied');
});

test('a wrong code is shown again with an error; a used code says so', async () => {
  const user = await aUser(quick);
  const browser = new FormBrowser();
  await signInFirst(browser, quick.issuer, user);
  const entry = await browser.open(`${quick.issuer}/device`);
  const wrong = await browser.submit(entry, { user_code: 'BBBB-BBBB' }, { action: /\/device$/ });
  expect(wrong.html).toContain('That code is not right.');
  expect(wrong.html).toContain('aria-invalid="true"');

  const { json: started } = await deviceAuthorization(quick.issuer);
  await confirmDevice(browser, quick.issuer, started.user_code, user);
  const again = await browser.submit(await browser.open(`${quick.issuer}/device`), { user_code: started.user_code }, { action: /\/device$/ });
  expect(again.html).toContain('<h1>This code was already used</h1>');
});

test('the link with the code (verification_uri_complete) fills the code in; the person still sends it', async () => {
  const { json: started } = await deviceAuthorization(quick.issuer);
  const page = await new FormBrowser().open(started.verification_uri_complete);
  expect(page.status).toBe(200);
  expect(page.html).toContain(`value="${started.user_code}"`);
  expect(page.html).not.toContain('<script');
});

test('a forged code form (no oidc-provider xsrf token) is refused and shown again', async () => {
  const { json: started } = await deviceAuthorization(quick.issuer);
  const browser = new FormBrowser();
  const entry = await browser.open(`${quick.issuer}/device`);
  const forged = await browser.submit(entry, { user_code: started.user_code }, { action: /\/device$/, omit: ['xsrf'] });
  expect(forged.html).toContain('This form expired or could not be checked (invalid_request).');
  expect((await poll(quick.issuer, started.device_code)).json.error).toBe('authorization_pending');
});

test('production cookies behind a TLS proxy: the device login signs in and confirms, and the resume cookie is __Secure- on /device/<uid>', async () => {
  const secure = await startAuthServer({ https: true, config: { deviceFlow: { ...defaultDeviceFlow, intervalSeconds: 1 } } });
  try {
    const user = await aUser(secure);
    const { json: started } = await deviceAuthorization(secure.url);
    const browser = new FormBrowser({ tlsProxy: true });
    const page = await confirmDevice(browser, secure.issuer, started.user_code, user);
    expect(page.html).toContain('<h1>Device connected</h1>');
    expect(browser.setCookies.some((line) => /^__Secure-cp_interaction_resume=.*path=\/device\/[\w-]+;.*secure/i.test(line))).toBe(true);
    expect(browser.setCookies.filter((line) => /^cp_/.test(line))).toEqual([]);
    expect((await pollUntilDecided(secure.url, started.device_code, 1)).status).toBe(200);
  } finally {
    await secure.close();
  }
});

describe('expiry', () => {
  let shortLived: AuthHarness;
  beforeAll(async () => {
    shortLived = await startAuthServer({ ...databaseStorage(db), config: { deviceFlow: { ...defaultDeviceFlow, intervalSeconds: 1, codeLifetimeSeconds: 2 } } });
  });
  afterAll(() => shortLived?.close());

  test('an expired code answers expired_token to the CLI and "This code expired" to the person', async () => {
    const { json: started } = await deviceAuthorization(shortLived.issuer);
    expect(started.expires_in).toBe(2);
    await sleep(2500);
    expect(await poll(shortLived.issuer, started.device_code)).toEqual({
      status: 400,
      json: { error: 'expired_token', error_description: 'device code is expired' },
    });
    const browser = new FormBrowser();
    const page = await browser.submit(await browser.open(`${shortLived.issuer}/device`), { user_code: started.user_code }, { action: /\/device$/ });
    expect(page.html).toContain('<h1>This code expired</h1>');
  });
});

describe('slow_down (RFC 8628 section 3.5)', () => {
  test('a poll sooner than the interval answers slow_down, and the code interval grows by 5 s', async () => {
    const { json: started } = await deviceAuthorization(quick.issuer);
    expect((await poll(quick.issuer, started.device_code)).json.error).toBe('authorization_pending');
    expect(await poll(quick.issuer, started.device_code)).toEqual({
      status: 400,
      json: { error: 'slow_down', error_description: "polling too fast: this device_code's interval is now 6 seconds; wait that long between token requests" },
    });
    // Past the announced interval (1 s) but within the grown one (6 s): still too soon, and it grows again.
    await sleep(1500);
    expect((await poll(quick.issuer, started.device_code)).json.error_description).toContain('interval is now 11 seconds');
  });

  test('Promise.all of 12 polls of one code: exactly one is not slow_down', async () => {
    const { json: started } = await deviceAuthorization(quick.issuer);
    const answers = await Promise.all(Array.from({ length: 12 }, () => poll(quick.issuer, started.device_code)));
    const errors = answers.map((answer) => answer.json.error);
    expect(errors.filter((error) => error !== 'slow_down')).toEqual(['authorization_pending']);
  });

  test('codes are paced apart: another code polled at the same time is not slowed down', async () => {
    const [{ json: one }, { json: two }] = await Promise.all([deviceAuthorization(quick.issuer), deviceAuthorization(quick.issuer)]);
    const answers = await Promise.all([poll(quick.issuer, one.device_code), poll(quick.issuer, two.device_code)]);
    expect(answers.map((answer) => answer.json.error)).toEqual(['authorization_pending', 'authorization_pending']);
  });
});

describe('only cpc may use the device and token-exchange grants', () => {
  let documents: DocumentServer;
  let withDocuments: AuthHarness;
  beforeAll(async () => {
    documents = await DocumentServer.start();
    withDocuments = await startAuthServer({ config: { cimd: { ...defaultCimd, allowLoopback: true } } });
  });
  afterAll(async () => {
    await withDocuments?.close();
    await documents?.close();
  });

  test.each([
    ['device_code', ['urn:ietf:params:oauth:grant-type:device_code'], 'grant_types urn:ietf:params:oauth:grant-type:device_code is'],
    ['token-exchange', ['authorization_code', 'urn:ietf:params:oauth:grant-type:token-exchange'], 'grant_types urn:ietf:params:oauth:grant-type:token-exchange is'],
    [
      'both',
      ['urn:ietf:params:oauth:grant-type:device_code', 'urn:ietf:params:oauth:grant-type:token-exchange'],
      'grant_types urn:ietf:params:oauth:grant-type:device_code and urn:ietf:params:oauth:grant-type:token-exchange are',
    ],
  ])('dynamic registration asking for %s: invalid_client_metadata', async (_name, grantTypes, start) => {
    const { status, json } = await register(standard.issuer, {
      client_name: 'Phisher',
      redirect_uris: ['http://localhost:33418/callback'],
      grant_types: grantTypes,
      response_types: grantTypes.includes('authorization_code') ? ['code'] : [],
      token_endpoint_auth_method: 'none',
    });
    expect(status).toBe(400);
    expect(json).toEqual({
      error: 'invalid_client_metadata',
      error_description: `${start} reserved for the platform's own command line (client_id cpc); other clients use authorization_code (with refresh_token)`,
    });
  });

  test('a client metadata document asking for device_code: invalid_client_metadata at the device endpoint', async () => {
    const url = documents.serveJson('/device-phisher.json', (self) => aDocument(self, { grant_types: ['urn:ietf:params:oauth:grant-type:device_code'] }));
    const { status, json } = await deviceAuthorization(withDocuments.issuer, { client_id: url });
    expect(status).toBe(400);
    expect(json).toEqual({
      error: 'invalid_client_metadata',
      error_description: `the client metadata document at ${url} is refused: grant_types urn:ietf:params:oauth:grant-type:device_code is reserved for the platform's own command line (client_id cpc); other clients use authorization_code (with refresh_token)`,
    });
  });

  test('a client metadata document asking for token-exchange: invalid_client_metadata at the token endpoint', async () => {
    const url = documents.serveJson('/exchange-phisher.json', (self) => aDocument(self, { grant_types: ['authorization_code', 'urn:ietf:params:oauth:grant-type:token-exchange'] }));
    const { status, json } = await tokenRequest(withDocuments.issuer, { grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange', client_id: url, subject_token: 'x' });
    expect(status).toBe(400);
    expect(json.error).toBe('invalid_client_metadata');
    expect(json.error_description).toContain('token-exchange is reserved for the platform');
  });

  test('a registered client cannot start a device login, nor poll with a device_code', async () => {
    const client = await aPublicClient(standard.issuer);
    const started = await deviceAuthorization(standard.issuer, { client_id: client.client_id });
    expect(started.status).toBe(400);
    expect(started.json).toEqual({ error: 'invalid_request', error_description: 'urn:ietf:params:oauth:grant-type:device_code is not allowed for this client' });
    const { json: real } = await deviceAuthorization(standard.issuer);
    const stolen = await poll(standard.issuer, real.device_code, client.client_id);
    expect(stolen.status).toBe(400);
    expect(stolen.json.error).toBe('invalid_request');
  });
});
