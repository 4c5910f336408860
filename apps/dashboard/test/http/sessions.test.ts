import { aComponentWithVariants } from '../support/builders.js';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';
import { FormBrowser, csrfOf, headline, sessionCookie, signInThrough } from '../support/sign-in.js';
import { DEVELOPMENT_SESSION_KEY } from '../../src/config.js';

/* Sessions, sign-in and CSRF over real HTTP: the dashboard and the auth server on their own ports, one database. */

let stack: DashboardStack;
beforeAll(async () => {
  stack = await startDashboardStack();
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const get = (path: string, cookie?: string) => fetch(`${stack.url}${path}`, { redirect: 'manual', headers: cookie === undefined ? {} : { cookie } });

test('signed out, a page redirects to the sign-in, which sends the browser to the auth server with PKCE', async () => {
  const id = '0f8fad5b-d9cb-469f-a165-70867728950e';
  const res = await get(`/component/${id}`);
  expect(res.status).toBe(303);
  expect(res.headers.get('location')).toBe(`/login?returnTo=${encodeURIComponent(`/component/${id}`)}`);
  const login = await get(`/login?returnTo=${encodeURIComponent(`/component/${id}`)}`);
  expect(login.status).toBe(303);
  const to = new URL(login.headers.get('location')!);
  expect(`${to.origin}${to.pathname}`).toBe(`${stack.auth.issuer}/authorize`);
  expect(Object.fromEntries(to.searchParams)).toEqual({
    client_id: 'dashboard',
    redirect_uri: `${stack.url}/auth/callback`,
    response_type: 'code',
    scope: 'openid',
    state: expect.stringMatching(/^[\w-]{43}$/),
    code_challenge: expect.stringMatching(/^[\w-]{43}$/),
    code_challenge_method: 'S256',
  });
});

test('dashboardUrl (/component/<id>) opens the component after signing in, with no consent page', async () => {
  const user = await anAccount(stack.auth);
  const { component } = await aComponentWithVariants(stack.domain, user, 1);
  const browser = new FormBrowser();
  const { toAuthServer, page } = await signInThrough(browser, stack.url, `/component/${component.id}`, user);
  expect(toAuthServer.url.startsWith(`${stack.auth.issuer}/authorize?`)).toBe(true);
  expect(page.status).toBe(200);
  expect(page.url).toBe(`${stack.url}/component/${component.id}`);
  expect(headline(page).title).toBe(component.name);
});

test('a return address on another site is ignored: the sign-in ends on the dashboard', async () => {
  const user = await anAccount(stack.auth);
  const browser = new FormBrowser();
  const { page } = await signInThrough(browser, stack.url, `/login?returnTo=${encodeURIComponent('//evil.example/x')}`, user);
  expect(page.url).toBe(`${stack.url}/orgs/${user.defaultOrganizationId}/components`);
});

test('a callback without the login cookie starts over; one with a forged state is refused with 400', async () => {
  const fresh = await get('/auth/callback?code=x&state=y');
  expect([fresh.status, fresh.headers.get('location')]).toEqual([303, '/login']);
  const login = await get('/login?returnTo=%2Forgs');
  const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
  const res = await get('/auth/callback?code=x&state=forged', cookie);
  expect(res.status).toBe(400);
  expect(headline({ status: 400, url: '', html: await res.text(), headers: res.headers })).toEqual({
    title: 'Sign-in did not complete',
    message: 'The sign-in was cancelled, expired or could not be checked.',
  });
});

test('a session cookie is honoured only with its signature: edited, signed with another key or expired, it is signed out', async () => {
  const alice = await anAccount(stack.auth);
  const bob = await anAccount(stack.auth);
  const genuine = sessionCookie(alice.id, DEVELOPMENT_SESSION_KEY);
  expect((await get('/orgs', genuine)).status).toBe(200);

  // Bob's id in Alice's cookie, her signature kept.
  const [name, value] = genuine.split('=') as [string, string];
  const [body, signature] = value.split('.') as [string, string];
  const edited = Buffer.from(Buffer.from(body, 'base64url').toString('utf8').replace(alice.id, bob.id)).toString('base64url');
  const forgeries = [
    `${name}=${edited}.${signature}`,
    sessionCookie(bob.id, 'another-key-that-is-at-least-32-characters-long'),
    sessionCookie(alice.id, DEVELOPMENT_SESSION_KEY, -1),
    `${name}=${body}`,
    `${name}=%E0%A4%A`,
  ];
  for (const cookie of forgeries) {
    const res = await get('/orgs', cookie);
    expect([cookie, res.status, res.headers.get('location')]).toEqual([cookie, 303, '/login?returnTo=%2Forgs']);
  }
});

describe('CSRF', () => {
  let browser: FormBrowser;
  let orgId: string;
  beforeAll(async () => {
    const user = await anAccount(stack.auth);
    orgId = user.defaultOrganizationId;
    browser = new FormBrowser();
    await signInThrough(browser, stack.url, '/orgs', user);
  });

  const FORM_EXPIRED = { title: 'This form expired', message: 'The form was not sent from this site, or it is too old. Go back, reload the page and try again.' };

  test.each([
    ['without a token', {}],
    ['with a wrong token', { csrf_token: 'A'.repeat(43) }],
    ['with an empty token', { csrf_token: '' }],
  ])('a form POST %s is refused with 403 and changes nothing', async (_case, token: Record<string, string>) => {
    const page = await browser.open(`${stack.url}/orgs/${orgId}/environments`, { method: 'POST', form: { name: 'sneaky', ...token } });
    expect(page.status).toBe(403);
    expect(headline(page)).toEqual(FORM_EXPIRED);
    expect(await stack.domain.repos.environments.findByName(orgId, 'sneaky')).toBeNull();
  });

  test("a token from another browser's page is refused: the token is bound to the browser's CSRF cookie", async () => {
    const other = new FormBrowser();
    await signInThrough(other, stack.url, '/orgs', await anAccount(stack.auth));
    const foreignToken = csrfOf(await other.open(`${stack.url}/orgs`));
    const page = await browser.open(`${stack.url}/orgs/${orgId}/environments`, { method: 'POST', form: { name: 'sneaky', csrf_token: foreignToken } });
    expect(page.status).toBe(403);
    expect(headline(page)).toEqual(FORM_EXPIRED);
  });

  test('with the token of a page it works', async () => {
    const form = await browser.open(`${stack.url}/orgs/${orgId}/environments`);
    const page = await browser.submit(form, { name: 'honest' }, { action: /environments$/ });
    expect([page.status, page.url]).toEqual([200, `${stack.url}/orgs/${orgId}/environments?notice=env-added`]);
  });

  test('sign-out needs the token too: without it the session stays', async () => {
    await browser.open(`${stack.url}/logout`, { method: 'POST', form: {} });
    expect((await browser.open(`${stack.url}/orgs`)).status).toBe(200);
  });
});

test('signed out, a form POST goes to the sign-in and changes nothing', async () => {
  const res = await fetch(`${stack.url}/orgs/0f8fad5b-d9cb-469f-a165-70867728950e/environments`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ name: 'x' }) });
  expect([res.status, res.headers.get('location')]).toEqual([303, '/login']);
});
