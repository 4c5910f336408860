import { randomBytes, randomUUID } from 'node:crypto';
import { acceptInvitation, createInvitation, revokeInvitation, type DomainDeps } from '@cp/domain';
import { aUserWithOrganization, createTestDatabase, type Owner, type TestDatabase } from '@cp/db/testing';
import { defaultThrottle } from '../src/config.js';
import { FormBrowser, type Page } from './support/form-browser.js';
import { aUser, PASSWORD } from './support/flow.js';
import { databaseStorage, startAuthServer, type AuthHarness } from './support/harness.js';
import { authorizeUrl, pkce } from './support/oauth-client.js';

/*
 * README "Throttling", invitations: a sign-up or sign-in presenting the token of a pending
 * invitation for its email does not spend the per-network budget. Real HTTP, invitations and
 * accounts in a real database (PGlite, or PostgreSQL with DATABASE_URL), the throttles on
 * Redis when REDIS_URL is set (memory otherwise), at the production budgets.
 */
const dashboard = {
  clientId: 'dashboard-test',
  clientSecret: 'dashboard-test-secret-of-at-least-32-chars',
  url: 'http://localhost:4399',
};
const SIGNUP_BUDGET = defaultThrottle.signupPerNetwork.attempts;

let db: TestDatabase;
let domain: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>;
let auth: AuthHarness;
let team: Owner;

beforeAll(async () => {
  db = await createTestDatabase();
  const storage = databaseStorage(db);
  domain = storage.domain;
  auth = await startAuthServer({ ...storage, config: { dashboard, trustProxy: 'loopback', throttle: defaultThrottle } });
  team = await aUserWithOrganization(db.repos);
}, 120_000);
afterAll(async () => {
  await auth?.close();
  await db?.close();
});

/** A fresh client network per test (192.0.2.0/24, TEST-NET-1), so tests never share a budget. */
let nextNetwork = 1;
const aNetwork = (): string => `192.0.2.${nextNetwork++}`;

const invite = async (email: string, options: { ttlSeconds?: number; at?: Date } = {}) =>
  createInvitation(
    { actor: { userId: team.user.id }, organizationId: team.organization.id, email, role: 'member', ...(options.ttlSeconds === undefined ? {} : { ttlSeconds: options.ttlSeconds }) },
    options.at === undefined ? domain : { ...domain, clock: { now: () => options.at! } },
  );
const anEmail = (label = 'invitee'): string => `${label}-${randomUUID()}@example.test`;

/** The invitation link's sign-up page (`/signup?invitation=`), opened from `network`, submitted with `email`. */
async function signUp(network: string, email: string, token?: string, password = PASSWORD): Promise<Page> {
  const browser = new FormBrowser({ headers: { 'x-forwarded-for': network } });
  const page = await browser.open(`${auth.issuer}/signup${token === undefined ? '' : `?invitation=${encodeURIComponent(token)}`}`);
  return browser.submit(page, { email, password });
}
const plainSignUp = (network: string) => signUp(network, anEmail('plain'));
const signedUp = (page: Page): boolean => page.status === 200 && page.url.endsWith('/account');

async function spendBudget(network: string, times: number): Promise<void> {
  for (let i = 0; i < times; i += 1) expect(signedUp(await plainSignUp(network))).toBe(true);
}

const expectTooMany = (page: Page): void => {
  expect(page.status).toBe(429);
  expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(page.html).toContain('Too many attempts. Try again in');
};

test('30 invitation sign-ups from one address all succeed, and spend nothing: the 10 plain sign-ups still pass, the 11th is refused', async () => {
  const office = aNetwork();
  // Made one after another: this is the test's setup, not a load on the pool (a parallel burst can meet the pool's connect deadline on a busy machine).
  const invitations: { email: string; token: string }[] = [];
  for (const email of Array.from({ length: 30 }, () => anEmail())) invitations.push({ email, token: (await invite(email)).token });
  for (const { email, token } of invitations) {
    const page = await signUp(office, email, token);
    expect(page.status).toBe(200);
    expect(signedUp(page)).toBe(true);
  }
  for (const { email } of invitations) expect(await db.repos.users.findByEmail(email)).not.toBeNull();

  // The attacker on the same network: its whole budget is still there, and no more.
  await spendBudget(office, SIGNUP_BUDGET);
  expectTooMany(await plainSignUp(office));
  // An invitee still gets in past the spent budget.
  const late = anEmail();
  expect(signedUp(await signUp(office, late, (await invite(late)).token))).toBe(true);
});

describe('what does not exempt: each spends the budget like a plain sign-up, and is refused once it is spent', () => {
  const cases: [string, () => Promise<{ email: string; token: string }>][] = [
    ['an expired invitation', async () => {
      const email = anEmail();
      return { email, token: (await invite(email, { ttlSeconds: 3600, at: new Date(Date.now() - 2 * 3600_000) })).token };
    }],
    ['a revoked invitation', async () => {
      const email = anEmail();
      const created = await invite(email);
      await revokeInvitation({ actor: { userId: team.user.id }, organizationId: team.organization.id, invitationId: created.invitation.id }, domain);
      return { email, token: created.token };
    }],
    ['an invitation replaced by a newer one for the same email', async () => {
      const email = anEmail();
      const first = await invite(email);
      await invite(email);
      return { email, token: first.token };
    }],
    ['a valid invitation for another email (a forwarded link)', async () => ({ email: anEmail('someone-else'), token: (await invite(anEmail())).token })],
    ['a forged token of the right shape', async () => ({ email: anEmail(), token: `cpi_${randomBytes(32).toString('base64url')}` })],
    ['a malformed token', async () => ({ email: anEmail(), token: 'cpi_not-a-token' })],
    ['no token, only an email that has a pending invitation', async () => {
      const email = anEmail();
      await invite(email);
      return { email, token: '' };
    }],
  ];

  test.each(cases)('%s', async (_name, make) => {
    const network = aNetwork();
    const attempt = await make();
    const present = attempt.token === '' ? undefined : attempt.token;
    // While the budget lasts, it signs up as a plain sign-up would, and pays for it.
    expect(signedUp(await signUp(network, attempt.email, present))).toBe(true);
    await spendBudget(network, SIGNUP_BUDGET - 1);
    const again = await make();
    expectTooMany(await signUp(network, again.email, again.token === '' ? undefined : again.token));
    expect(await db.repos.users.findByEmail(again.email)).toBeNull();
  });

  test('an invitation already accepted: the sign-up with its email finds the account, and pays the budget', async () => {
    const network = aNetwork();
    const email = anEmail();
    const { token } = await invite(email);
    const invitee = await aUserWithOrganization(db.repos, { email });
    await acceptInvitation({ actor: { userId: invitee.user.id }, token }, domain);
    const taken = await signUp(network, email, token);
    expect(taken.status).toBe(409);
    await spendBudget(network, SIGNUP_BUDGET - 1);
    expectTooMany(await signUp(network, email, token));
  });

  test('an email that differs only in case and spaces is the invited one', async () => {
    const network = aNetwork();
    await spendBudget(network, SIGNUP_BUDGET);
    const email = anEmail('Mixed.Case');
    const { token } = await invite(email);
    expect(signedUp(await signUp(network, `  ${email.toUpperCase()} `, token))).toBe(true);
  });
});

test('one invitation spares one sign-up: Promise.all of 12 with one token from one network gets one exemption, the other 11 pay the budget (one refused), one account', async () => {
  const network = aNetwork();
  const email = anEmail();
  const { token } = await invite(email);
  const browsers = Array.from({ length: 12 }, () => new FormBrowser({ headers: { 'x-forwarded-for': network } }));
  const pages = await Promise.all(browsers.map((browser) => browser.open(`${auth.issuer}/signup?invitation=${token}`)));
  const results = await Promise.all(pages.map((page, i) => browsers[i]!.submit(page, { email, password: PASSWORD })));
  const statuses = results.map((page) => page.status).sort();
  // One exempt + 10 paid get through to the account check: one creates it, the others find it taken.
  expect(statuses.filter((status) => status === 200)).toHaveLength(1);
  expect(statuses.filter((status) => status === 409)).toHaveLength(SIGNUP_BUDGET);
  expect(statuses.filter((status) => status === 429)).toHaveLength(1);
  expect(results.find((page) => page.status === 409)!.html).toContain('An account with this email already exists. Sign in instead.');
  // The network's budget is spent, and the invitation's exemption with it.
  expectTooMany(await plainSignUp(network));
  expectTooMany(await signUp(network, email, token));
});

test('a password refused before hashing gives the exemption back: the invitee corrects it and is still spared', async () => {
  const network = aNetwork();
  await spendBudget(network, SIGNUP_BUDGET);
  const email = anEmail();
  const { token } = await invite(email);
  const short = await signUp(network, email, token, 'short');
  expect(short.status).toBe(400);
  expect(short.html).toContain('Choose a password of at least');
  expect(signedUp(await signUp(network, email, token))).toBe(true);
});

test("the dashboard's invitation sign-in: the authorization request's `invitation` reaches the sign-in and sign-up forms, and the sign-up is spared", async () => {
  const network = aNetwork();
  await spendBudget(network, SIGNUP_BUDGET);
  const email = anEmail();
  const { token } = await invite(email);
  const browser = new FormBrowser({ headers: { 'x-forwarded-for': network } });
  const signIn = await browser.open(
    authorizeUrl(auth.issuer, {
      client_id: dashboard.clientId,
      response_type: 'code',
      redirect_uri: `${dashboard.url}/auth/callback`,
      scope: 'openid',
      state: 'invitation-state',
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      login_hint: email,
      invitation: token,
    }),
  );
  expect(signIn.html).toContain(`<input type="hidden" name="invitation" value="${token}">`);
  const href = /<a href="([^"]*\/signup[^"]*)"/.exec(signIn.html)?.[1];
  const signUpPage = await browser.open(new URL(href!.replace(/&amp;/g, '&'), signIn.url).href);
  expect(signUpPage.html).toContain(`<input type="hidden" name="invitation" value="${token}">`);
  const back = await browser.submit(signUpPage, { email, password: PASSWORD }, { action: /\/signup/ });
  expect(back.url.startsWith(`${dashboard.url}/auth/callback?`)).toBe(true);
});

describe('sign-in', () => {
  const signIn = async (network: string, email: string, password: string, token?: string): Promise<Page> => {
    const browser = new FormBrowser({ headers: { 'x-forwarded-for': network } });
    const page = await browser.open(`${auth.issuer}/login${token === undefined ? '' : `?invitation=${encodeURIComponent(token)}`}`);
    return browser.submit(page, { email, password });
  };
  const LOGIN_NETWORK = defaultThrottle.loginPerNetwork.attempts;
  const LOGIN_PAIR = defaultThrottle.loginPerAccountNetwork.attempts;

  /** Spends the network's sign-in budget with failures for unknown emails (each under the per-account limits). */
  const spendSignIns = async (network: string): Promise<void> => {
    const results = await Promise.all(Array.from({ length: LOGIN_NETWORK }, () => signIn(network, anEmail('nobody'), 'wrong password')));
    expect(results.map((page) => page.status)).toEqual(Array.from({ length: LOGIN_NETWORK }, () => 401));
    expectTooMany(await signIn(network, anEmail('nobody'), 'wrong password'));
  };

  test('with the network budget spent, an invitee with an account still signs in through the invitation; without it, or with a bad one, refused', async () => {
    const network = aNetwork();
    const user = await aUser(auth);
    const { token } = await invite(user.email);
    await spendSignIns(network);
    expectTooMany(await signIn(network, user.email, PASSWORD));
    expectTooMany(await signIn(network, user.email, PASSWORD, `cpi_${randomBytes(32).toString('base64url')}`));
    expectTooMany(await signIn(network, user.email, PASSWORD, (await invite(anEmail())).token));
    const page = await signIn(network, user.email, PASSWORD, token);
    expect(page.status).toBe(200);
    expect(page.url.endsWith('/account')).toBe(true);
  });

  test('replaying one invitation for guesses: the per-(account, network) limit still holds, and the network budget is untouched', async () => {
    const network = aNetwork();
    const user = await aUser(auth);
    const { token } = await invite(user.email);
    const guesses = await Promise.all(Array.from({ length: 3 * LOGIN_PAIR }, (_, i) => signIn(network, user.email, `guess-${i}`, token)));
    const statuses = guesses.map((page) => page.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(LOGIN_PAIR);
    expect(statuses.filter((status) => status === 429)).toHaveLength(2 * LOGIN_PAIR);
    expectTooMany(await signIn(network, user.email, PASSWORD, token));
    // None of them spent the network's budget: it is whole for other accounts, and no more.
    await spendSignIns(network);
  });
});
