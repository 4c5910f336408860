import { FormBrowser } from './support/form-browser.js';
import { aUser, PASSWORD } from './support/flow.js';
import { startAuthServer, type AuthHarness } from './support/harness.js';

// The browser session's cookie over real HTTP: a new id at every sign-in, and an id that dies with sign-out.
let auth: AuthHarness;
beforeAll(async () => {
  auth = await startAuthServer();
});
afterAll(() => auth?.close());

/** The session cookie (and its signature) the browser holds now, as a Cookie header. */
function sessionCookie(browser: FormBrowser): string {
  const latest = new Map<string, string>();
  for (const line of browser.setCookies) {
    const pair = line.split(';')[0] ?? '';
    const name = pair.slice(0, pair.indexOf('='));
    if (name === 'cp_session' || name === 'cp_session.sig') latest.set(name, pair);
  }
  return [...latest.values()].join('; ');
}

async function signIn(browser: FormBrowser, email: string): Promise<void> {
  const page = await browser.submit(await browser.open(`${auth.issuer}/login`), {
    email,
    password: PASSWORD,
  });
  expect(page.url).toBe(`${auth.issuer}/account`);
}

/** Where /account sends a request carrying only `cookie`: itself when signed in, /login otherwise. */
const accountWith = async (cookie: string): Promise<string> => {
  const res = await fetch(`${auth.issuer}/account`, { headers: { cookie }, redirect: 'manual' });
  return res.status === 200
    ? '/account'
    : new URL(res.headers.get('location') ?? '', auth.issuer).pathname;
};

test('every sign-in gets a new session id, and the previous one stops working (no fixation)', async () => {
  const [first, second] = [await aUser(auth), await aUser(auth)];
  const browser = new FormBrowser();
  // One sign-in form, sent twice: the second time with the first session's cookie (as a planted one would be).
  const form = await browser.open(`${auth.issuer}/login`);
  expect((await browser.submit(form, { email: first.email, password: PASSWORD })).url).toBe(
    `${auth.issuer}/account`,
  );
  const before = sessionCookie(browser);
  expect(await accountWith(before)).toBe('/account');
  expect((await browser.submit(form, { email: second.email, password: PASSWORD })).html).toContain(
    second.email,
  );
  const after = sessionCookie(browser);
  expect(after).not.toBe(before);
  expect(await accountWith(after)).toBe('/account');
  expect(await accountWith(before)).toBe('/login');
});

test('signing out ends the session on the server: a copy of its cookie no longer signs in', async () => {
  const browser = new FormBrowser();
  await signIn(browser, (await aUser(auth)).email);
  const copy = sessionCookie(browser);
  await browser.submit(await browser.open(`${auth.issuer}/account`), {}, { action: /\/logout$/ });
  expect(await accountWith(copy)).toBe('/login');
});
