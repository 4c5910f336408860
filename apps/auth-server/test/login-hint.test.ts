import { FormBrowser, type Page } from './support/form-browser.js';
import { PASSWORD } from './support/flow.js';
import { startAuthServer, type AuthHarness } from './support/harness.js';
import { authorizeUrl, pkce } from './support/oauth-client.js';

/*
 * `login_hint` (OpenID Connect): the dashboard sends the invited email with an invitation's
 * sign-in, and both the sign-in page and the sign-up page it links to start with that email,
 * so the invitee signs in, or creates the account, with the invited address.
 */
const dashboard = {
  clientId: 'dashboard-test',
  clientSecret: 'dashboard-test-secret-of-at-least-32-chars',
  url: 'http://localhost:4399',
};
let auth: AuthHarness;

beforeAll(async () => {
  auth = await startAuthServer({ config: { dashboard } });
});
afterAll(async () => {
  await auth?.close();
});

const start = (loginHint?: string) =>
  authorizeUrl(auth.issuer, {
    client_id: dashboard.clientId,
    response_type: 'code',
    redirect_uri: `${dashboard.url}/auth/callback`,
    scope: 'openid',
    state: 'hint-state',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    login_hint: loginHint,
  });

const emailValue = (page: Page): string | undefined =>
  /<input id="email"[^>]*value="([^"]*)"/.exec(page.html)?.[1];
const signupHref = (page: Page): string => {
  const href = /<a href="([^"]*\/signup[^"]*)"/.exec(page.html)?.[1];
  if (href === undefined) throw new Error(`no sign-up link on ${page.url}`);
  return new URL(href.replace(/&amp;/g, '&'), page.url).href;
};

it('pre-fills the sign-in and the sign-up pages with the hinted email, escaped', async () => {
  const browser = new FormBrowser();
  const signIn = await browser.open(start('Invited.Person+team@example.test'));
  expect(signIn.status).toBe(200);
  expect(emailValue(signIn)).toBe('Invited.Person+team@example.test');
  const signUp = await browser.open(signupHref(signIn));
  expect(signUp.status).toBe(200);
  expect(emailValue(signUp)).toBe('Invited.Person+team@example.test');

  const hostile = await new FormBrowser().open(start('"><script>alert(1)</script>'));
  expect(hostile.html).not.toContain('<script>alert(1)');
  expect(emailValue(hostile)).toBe('&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
});

it('without a hint the fields start empty; a sign-up link of another attempt does not leak its hint', async () => {
  const browser = new FormBrowser();
  const signIn = await browser.open(start());
  expect(emailValue(signIn)).toBe('');
  expect(emailValue(await browser.open(signupHref(signIn)))).toBe('');
  const other = await new FormBrowser().open(start('someone@example.test'));
  // This browser's interaction cookie is not the other attempt's: nothing to pre-fill.
  expect(emailValue(await browser.open(signupHref(other)))).toBe('');
});

it('the invitee creates the account through the hinted sign-up and goes straight back to the client, signed in', async () => {
  const browser = new FormBrowser();
  const signIn = await browser.open(start('new-invitee@example.test'));
  const signUp = await browser.open(signupHref(signIn));
  const back = await browser.submit(
    signUp,
    { email: emailValue(signUp)!, password: PASSWORD },
    { action: /\/signup/ },
  );
  expect(back.url.startsWith(`${dashboard.url}/auth/callback?`)).toBe(true);
  expect(await auth.domain.repos.users.findByEmail('new-invitee@example.test')).not.toBeNull();
});
