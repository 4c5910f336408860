import { FormBrowser } from './support/form-browser.js';
import { aUser, authorizeCode, exchange } from './support/flow.js';
import { startAuthServer, type AuthHarness } from './support/harness.js';
import { aPublicClient, decodeJwt } from './support/oauth-client.js';

/*
 * Production's cookies: an https issuer behind a TLS-terminating proxy the app trusts.
 * The proxy is stood in for by FormBrowser (`tlsProxy`: X-Forwarded-Proto over plain
 * HTTP); there is no TLS in these tests.
 */
const harnesses: AuthHarness[] = [];
afterAll(async () => {
  await Promise.all(harnesses.map((harness) => harness.close()));
});
const start = async (https: boolean) => {
  const harness = await startAuthServer({ https });
  harnesses.push(harness);
  return harness;
};

interface SetCookie {
  readonly name: string;
  readonly attributes: string[];
}
const parse = (line: string): SetCookie => {
  const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
  return {
    name: pair.slice(0, pair.indexOf('=')),
    attributes: attributes.map((attribute) => attribute.toLowerCase()),
  };
};

test('https issuer: session, interaction and CSRF cookies carry __Host- (Secure, Path=/, no Domain), the resume cookie __Secure-; sign-in, consent and the code exchange work', async () => {
  const auth = await start(true);
  expect(auth.issuer).toMatch(/^https:/);
  const client = await aPublicClient(auth.url);
  const user = await aUser(auth);
  const browser = new FormBrowser({ tlsProxy: true });

  const flow = await authorizeCode(browser, auth, client, user);
  expect(flow.callback.searchParams.get('iss')).toBe(auth.issuer);
  const tokens = await exchange({ issuer: auth.url }, client, flow);
  expect(tokens.status).toBe(200);
  expect(decodeJwt(tokens.json.access_token).payload.sub).toBe(user.id);
  // The browser session works on the account page too.
  const account = await browser.open(`${auth.issuer}/account`);
  expect(account.status).toBe(200);
  expect(account.html).toContain(user.email);

  const cookies = browser.setCookies.map(parse);
  const names = new Set(cookies.map((cookie) => cookie.name));
  for (const name of [
    '__Host-cp_session',
    '__Host-cp_session.sig',
    '__Host-cp_interaction',
    '__Host-cp_csrf',
    '__Secure-cp_interaction_resume',
  ]) {
    expect(names).toContain(name);
  }
  for (const cookie of cookies) {
    expect(cookie.name).toMatch(/^(__Host-|__Secure-)/);
    expect(cookie.attributes).toContain('secure');
    expect(cookie.attributes.some((attribute) => attribute.startsWith('domain='))).toBe(false);
    if (cookie.name.startsWith('__Host-')) expect(cookie.attributes).toContain('path=/');
    else
      expect(cookie.attributes.find((attribute) => attribute.startsWith('path='))).toMatch(
        /^path=\/authorize\/[A-Za-z0-9_-]+$/,
      );
  }
});

test('http issuer (development): the same cookies without prefix and without Secure', async () => {
  const auth = await start(false);
  const client = await aPublicClient(auth.url);
  const browser = new FormBrowser();
  const flow = await authorizeCode(browser, auth, client, await aUser(auth));
  expect((await exchange(auth, client, flow)).status).toBe(200);
  const cookies = browser.setCookies.map(parse);
  expect(new Set(cookies.map((cookie) => cookie.name))).toEqual(
    new Set([
      'cp_csrf',
      'cp_session',
      'cp_session.sig',
      'cp_interaction',
      'cp_interaction.sig',
      'cp_interaction_resume',
      'cp_interaction_resume.sig',
    ]),
  );
  for (const cookie of cookies) expect(cookie.attributes).not.toContain('secure');
});
