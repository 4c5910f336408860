import { createTestDatabase, type TestDatabase } from '@cp/db/testing';
import { generateSigningKey, type SigningKey } from '../src/keys/signing-keys.js';
import { FormBrowser } from './support/form-browser.js';
import { aUser, authorizeCode, exchange } from './support/flow.js';
import { databaseStorage, startAuthServer } from './support/harness.js';
import { aPublicClient, decodeJwt, tokenRequest } from './support/oauth-client.js';

let db: TestDatabase;
let keys: SigningKey[];
beforeAll(async () => {
  db = await createTestDatabase();
  keys = [await generateSigningKey()];
}, 120_000);
afterAll(() => db?.close());

test('clients, grants, sessions and refresh tokens survive a restart; expired rows are purged', async () => {
  const cookieKeys = ['restart-test-cookie-key-0123456789abcdef'];
  const first = await startAuthServer({ ...databaseStorage(db), signingKeys: keys, config: { cookieKeys } });
  const user = await aUser(first);
  const client = await aPublicClient(first.issuer);
  const browser = new FormBrowser();
  const { json: tokens } = await exchange(first, client, await authorizeCode(browser, first, client, user));
  const issuer = first.issuer;
  await first.close();

  // A new process on the same database, keys and cookie keys (a different port, so the issuer differs:
  // tokens are checked against the same storage, not the same URL).
  const second = await startAuthServer({ ...databaseStorage(db), signingKeys: keys, config: { cookieKeys } });
  try {
    const refreshed = await tokenRequest(second.issuer, { grant_type: 'refresh_token', client_id: client.client_id, refresh_token: tokens.refresh_token });
    expect(refreshed.status).toBe(200);
    expect(decodeJwt(refreshed.json.access_token).payload.grantId).toBe(decodeJwt(tokens.access_token).payload.grantId);
    expect(second.issuer).not.toBe(issuer);

    // The browser session is stored too: still signed in, and the grant is listed.
    const sessionCookies = browser.cookieNames().filter((name) => name.startsWith('cp_session'));
    expect(sessionCookies.length).toBeGreaterThan(0);
    // Cookies are per host, not per port: the jar from the first server works on the second.
    const account = await browser.open(`${second.issuer}/account`);
    expect(account.html).toContain('Test client');

    // Purge: nothing live goes, an expired row does.
    await db.prisma.oidcPayload.create({ data: { id: 'old', type: 'Session', payload: {}, expiresAt: new Date(Date.now() - 1000) } });
    expect(await second.oidc.purgeExpired(new Date())).toBe(1);
    expect(await second.oidc.adapterFor('Client').find(client.client_id)).toBeDefined();
  } finally {
    await second.close();
  }
});
