import { createTestDatabase, type TestDatabase } from '@cp/db/testing';
import { hashPassword, PASSWORD_COST, verifyPassword } from '../src/accounts/passwords.js';
import { FormBrowser } from './support/form-browser.js';
import { aUser, PASSWORD } from './support/flow.js';
import { databaseStorage, startAuthServer, type AuthHarness } from './support/harness.js';

// Hashes stored in a real database (PGlite, or PostgreSQL with DATABASE_URL), the app at the production cost.
let db: TestDatabase;
let auth: AuthHarness;
beforeAll(async () => {
  db = await createTestDatabase();
  auth = await startAuthServer({ ...databaseStorage(db), passwordCost: PASSWORD_COST });
}, 120_000);
afterAll(async () => {
  await auth?.close();
  await db?.close();
});

const costOf = (hash: string | null): string => (hash ?? '').split('$').slice(1, 4).join('$');

async function signIn(email: string, password: string): Promise<number> {
  const browser = new FormBrowser();
  return (await browser.submit(await browser.open(`${auth.issuer}/login`), { email, password }))
    .status;
}

test('the production cost is OWASP scrypt floor: N=2^17, r=8, p=1', async () => {
  expect(PASSWORD_COST).toEqual({ logN: 17, r: 8, p: 1 });
  const hash = await hashPassword(PASSWORD);
  expect(costOf(hash)).toBe('17$8$1');
  expect(await verifyPassword(PASSWORD, hash)).toBe(true);
  expect(await verifyPassword('not the password', hash)).toBe(false);
});

test('a hash stored at a lower cost is upgraded at the next successful sign-in, and still verifies; a wrong password rewrites nothing', async () => {
  const user = await aUser(auth, undefined, { logN: 15, r: 8, p: 1 });
  const old = await auth.credentials.findPasswordHash(user.id);
  expect(costOf(old)).toBe('15$8$1');

  expect(await signIn(user.email, 'wrong password')).toBe(401);
  expect(await auth.credentials.findPasswordHash(user.id)).toBe(old);

  expect(await signIn(user.email, PASSWORD)).toBe(200);
  const upgraded = await auth.credentials.findPasswordHash(user.id);
  expect(costOf(upgraded)).toBe('17$8$1');
  expect(await verifyPassword(PASSWORD, upgraded!)).toBe(true);

  // Already at the floor: a later sign-in keeps it as it is.
  expect(await signIn(user.email, PASSWORD)).toBe(200);
  expect(await auth.credentials.findPasswordHash(user.id)).toBe(upgraded);
});

test('two parallel sign-ins of a user with an old hash: both succeed, one upgrade is kept', async () => {
  const user = await aUser(auth, undefined, { logN: 15, r: 8, p: 1 });
  expect(await Promise.all([signIn(user.email, PASSWORD), signIn(user.email, PASSWORD)])).toEqual([
    200, 200,
  ]);
  const hash = await auth.credentials.findPasswordHash(user.id);
  expect(costOf(hash)).toBe('17$8$1');
  expect(await verifyPassword(PASSWORD, hash!)).toBe(true);
});
