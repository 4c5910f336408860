/// <reference lib="dom" />
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { launchChromium, type Browser, type Page } from '@cp/browser-testing';
import { startAuthServer, type AuthHarness } from '../support/harness.js';
import { aPublicClient, authorizeUrl, pkce } from '../support/oauth-client.js';
import { aUser, PASSWORD as USER_PASSWORD } from '../support/flow.js';
import { TlsProxy } from '../support/tls-proxy.js';

/*
 * The sign-up, sign-in and consent pages in headless Chromium (Debian's package,
 * driven by playwright-core), keyboard only, no JavaScript on the pages. A
 * screenshot of each goes to test-artifacts/ (gitignored; CI keeps it).
 */
const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts');
const PASSWORD = 'correct horse battery staple';

let auth: AuthHarness;
let browser: Browser;
beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  auth = await startAuthServer();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await auth?.close();
});

const shot = (page: Page, name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });

/** Tab order as a keyboard user meets it: the accessible name of each focused control. */
async function tabOrder(page: Page, stops: number): Promise<string[]> {
  const names: string[] = [];
  for (let i = 0; i < stops; i += 1) {
    await page.keyboard.press('Tab');
    names.push(
      await page.evaluate(() => {
        const el = document.activeElement as HTMLInputElement | null;
        if (el === null) return '';
        const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
        return `${el.tagName.toLowerCase()}:${(label ?? el.textContent ?? el.getAttribute('name') ?? '').trim()}`;
      }),
    );
  }
  return names;
}

test('sign up, sign in and consent in Chromium, with the keyboard, without JavaScript', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const client = await aPublicClient(auth.issuer, { client_name: 'Claude Code', redirect_uris: ['http://127.0.0.1:9/callback'] });
  const start = authorizeUrl(auth.issuer, {
    client_id: client.client_id,
    response_type: 'code',
    redirect_uri: client.redirect_uris[0],
    scope: 'mcp:read mcp:write',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    state: 'browser',
  });

  // Sign-in page of the authorization: labelled fields, then the button, then the sign-up link.
  await page.goto(start);
  await expect(page.getByRole('heading', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
  await shot(page, 'sign-in');
  // Focus starts on the email field (autofocus); Tab then visits the rest in reading order.
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('email');
  expect(await tabOrder(page, 3)).toEqual(['input:Password', 'button:Sign in', 'a:Create an account']);

  // Sign-up from the link, then straight on to consent for the same authorization.
  await page.getByRole('link', { name: 'Create an account' }).click();
  await page.getByLabel('Email').fill(`chromium-${Date.now()}@example.com`);
  await page.getByLabel('Password').fill(PASSWORD);
  await shot(page, 'sign-up');
  await page.getByLabel('Password').press('Enter');

  await page.waitForURL(/\/interaction\//);
  await expect(page.getByRole('heading', { name: 'Allow Claude Code to use your account?' }).isVisible()).resolves.toBe(true);
  await expect(page.getByText('127.0.0.1:9').first().isVisible()).resolves.toBe(true);
  await shot(page, 'consent');
  // The client's loopback listener, played by the test.
  await page.route('http://127.0.0.1:9/**', (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'You can close this window.' }));
  await page.getByRole('button', { name: 'Allow' }).click();
  await page.waitForURL(/^http:\/\/127\.0\.0\.1:9\/callback/);
  const callback = new URL(page.url());
  expect(callback.searchParams.get('code')).toEqual(expect.any(String));
  expect(callback.searchParams.get('state')).toBe('browser');

  // The account page, signed in by the same browser session.
  await page.goto(`${auth.issuer}/account`);
  await expect(page.getByRole('row', { name: /Claude Code/ }).isVisible()).resolves.toBe(true);
  await shot(page, 'account');
  await context.close();
}, 60_000);

test('a wrong password shows an announced error and keeps the email', async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${auth.issuer}/login`);
  await page.getByLabel('Email').fill('someone@example.com');
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').textContent()).resolves.toContain('The email or password is not right');
  await expect(page.getByLabel('Email').inputValue()).resolves.toBe('someone@example.com');
  await expect(page.getByLabel('Email').getAttribute('aria-describedby')).resolves.toBe('form-error');
  await shot(page, 'sign-in-error');
  await context.close();
});

test('production cookies behind a TLS proxy: Chromium keeps the __Host- session, interaction and CSRF cookies and the __Secure- resume cookie, and the sign-in and consent work', async () => {
  const proxy = new TlsProxy();
  const issuer = await proxy.start();
  const secure = await startAuthServer({ https: true, config: { issuer } });
  proxy.forwardTo(secure.url);
  const context = await browser.newContext({ javaScriptEnabled: false, ignoreHTTPSErrors: true });
  try {
    const page = await context.newPage();
    const client = await aPublicClient(secure.url, { client_name: 'Claude Code', redirect_uris: ['http://127.0.0.1:9/callback'] });
    const user = await aUser(secure);
    const seen = new Set<string>();
    // Chromium drops a __Host- cookie that is not Secure, has a Domain or a Path other than /: what it keeps was accepted.
    const keep = async () => (await context.cookies()).forEach((cookie) => seen.add(`${cookie.name} secure=${cookie.secure} path=${cookie.path.startsWith('/authorize/') ? '/authorize/<uid>' : cookie.path}`));
    await page.goto(authorizeUrl(issuer, { client_id: client.client_id, response_type: 'code', redirect_uri: client.redirect_uris[0], scope: 'mcp:read', code_challenge: pkce().challenge, code_challenge_method: 'S256' }));
    await keep();
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(USER_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/interaction\//);
    await keep();
    await page.route('http://127.0.0.1:9/**', (route) => route.fulfill({ status: 200, contentType: 'text/plain', body: 'You can close this window.' }));
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(/^http:\/\/127\.0\.0\.1:9\/callback/);
    const callback = new URL(page.url());
    expect(callback.searchParams.get('code')).toEqual(expect.any(String));
    expect(callback.searchParams.get('iss')).toBe(issuer);
    await keep();
    expect([...seen].sort()).toEqual([
      '__Host-cp_csrf secure=true path=/',
      '__Host-cp_interaction secure=true path=/',
      '__Host-cp_interaction.sig secure=true path=/',
      '__Host-cp_session secure=true path=/',
      '__Host-cp_session.sig secure=true path=/',
      '__Secure-cp_interaction_resume secure=true path=/authorize/<uid>',
      '__Secure-cp_interaction_resume.sig secure=true path=/authorize/<uid>',
    ]);
  } finally {
    await context.close();
    await secure.close();
    await proxy.stop();
  }
}, 60_000);
