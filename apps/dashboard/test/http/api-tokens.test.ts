import { API_TOKEN_LIMITS, AuditKind, hashApiToken, type Role, type User } from '@cp/domain';
import { aComponentWithVariants, aMembership } from '../support/builders.js';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';
import { tableAfter } from '../support/html.js';
import { csrfOf, headline, signedInBrowser, type Page } from '../support/sign-in.js';

/*
 * API tokens over real HTTP with the real auth server and database: the secret is shown on the answer
 * that created it and never again (the database holds its hash), members see and revoke their own
 * tokens while owners and admins see all, every bad field comes back as the form (422) naming the
 * field, revocations racing each other revoke once, and creations racing each other stop at the limit.
 */

let stack: DashboardStack;
let owner: User;
let orgId: string;
beforeAll(async () => {
  stack = await startDashboardStack();
  owner = await anAccount(stack.auth);
  orgId = owner.defaultOrganizationId;
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const base = () => `/orgs/${orgId}/api-tokens`;
const signedIn = (user: User) => signedInBrowser(stack.url, base(), user);

/** The form with no environment ticked (a read credential releases nowhere). */
const withoutEnvironments = (form: Record<string, string>) => Object.fromEntries(Object.entries(form).filter(([field]) => field !== 'environments'));
const tokens = () => stack.domain.repos.apiTokens.listForOrganization(orgId);

async function aMemberWith(role: Role): Promise<User> {
  const user = await anAccount(stack.auth);
  await aMembership(stack.db, user, orgId, role);
  return user;
}

/** The secret in the read-only field of the answer that created it. */
const secretOn = (page: Page): string | undefined => /id="new-secret"\s+readonly\s+value="([^"]+)"/.exec(page.html)?.[1];

const aToken = (name: string, over: Record<string, string> = {}) => ({ name, expiresInDays: '30', access: 'write', environments: 'staging', components: 'all', ...over });

test('the owner creates a token: the secret shown once, only its hash stored, listed with its prefix and scope, then revoked after a confirmation', async () => {
  const { page, post, get } = await signedIn(owner);
  expect(page.status).toBe(200);
  expect(page.html).toContain('No API tokens yet.');
  expect(page.html).toMatch(/<a href="[^"]*\/api-tokens" aria-current="page">API tokens<\/a>/);

  const created = await post(base(), aToken('nightly'));
  expect(created.status).toBe(200);
  const secret = secretOn(created);
  expect(secret).toMatch(/^cpt_[A-Za-z0-9_-]{49}$/);
  expect(created.html).toContain('it is shown only once');

  const [stored] = await tokens();
  expect(stored).toMatchObject({
    name: 'nightly',
    createdBy: owner.id,
    revokedAt: null,
    lastUsedAt: null,
    scope: { organizationId: orgId, componentIds: null, environments: ['staging'], access: 'write', protectedEnvironments: false },
  });
  expect(secret!.startsWith(stored!.prefix)).toBe(true);
  expect(stored!.expiresAt.getTime() - stored!.createdAt.getTime()).toBe(30 * 86_400_000);
  // The database holds the SHA-256, never the secret.
  expect(await stack.domain.repos.apiTokens.findBySecretHash(hashApiToken(secret!))).toMatchObject({ id: stored!.id });
  const rows = await stack.db!.prisma.$queryRawUnsafe<unknown[]>('SELECT * FROM api_tokens');
  expect(JSON.stringify(rows)).not.toContain(secret!.slice(12));

  // Never again: the list names it by its prefix only.
  const later = await get(base());
  expect(later.html).not.toContain(secret!);
  expect(tableAfter(later, `API tokens of ${(await stack.domain.repos.organizations.findById(orgId))!.name}`)).toEqual([
    ['nightly', `${stored!.prefix}…`, 'write · staging · all components', owner.email, expect.stringMatching(/ UTC$/), expect.stringMatching(/ UTC$/), 'never', 'active', 'Revoke…'],
  ]);

  const confirm = await get(`${base()}/${stored!.id}/revoke`);
  expect([confirm.status, headline(confirm).title]).toEqual([200, 'Revoke the API token nightly?']);
  expect(confirm.html).toContain('Revoke this token');
  expect((await tokens())[0]!.revokedAt).toBeNull();

  const revoked = await post(`${base()}/${stored!.id}/revoke`, {});
  expect([revoked.status, revoked.url]).toEqual([200, `${stack.url}${base()}?notice=api-token-revoked`]);
  expect((await tokens())[0]!.revokedAt).not.toBeNull();
  expect(tableAfter(revoked, `API tokens of ${(await stack.domain.repos.organizations.findById(orgId))!.name}`)[0]![7]).toMatch(/^revoked /);
  expect((await get(`${base()}/${stored!.id}/revoke`)).html).toContain('This token was revoked');
});

test('a chosen list of components and protected environments are kept as the form said', async () => {
  const { component } = await aComponentWithVariants(stack.domain, owner, 1, { name: 'Price tag' });
  const { post, get } = await signedIn(owner);
  expect((await get(base())).html).toContain('name="protectedEnvironments"');
  const created = await post(base(), aToken('prod releases', { environments: 'prod', components: 'chosen', componentIds: component.id, protectedEnvironments: 'on' }));
  expect(created.status).toBe(200);
  const stored = (await tokens()).find((t) => t.name === 'prod releases')!;
  expect(stored.scope).toEqual({ organizationId: orgId, componentIds: [component.id], environments: ['prod'], access: 'write', protectedEnvironments: true });
  expect(created.html).toContain('write · prod (protected too) · Price tag');
});

test('members see and revoke only their own tokens; owners and admins see every token', async () => {
  const member = await aMemberWith('member');
  const admin = await aMemberWith('admin');
  const ownerBrowser = await signedIn(owner);
  await ownerBrowser.post(base(), aToken('owner only'));
  const ownersToken = (await tokens()).find((t) => t.name === 'owner only')!;

  const memberBrowser = await signedIn(member);
  // A member cannot publish to prod directly: the form does not offer it.
  expect(memberBrowser.page.html).not.toContain('name="protectedEnvironments"');
  expect(memberBrowser.page.html).not.toContain('owner only');
  expect((await memberBrowser.post(base(), aToken('member token'))).status).toBe(200);
  const membersToken = (await tokens()).find((t) => t.name === 'member token')!;
  const memberList = await memberBrowser.get(base());
  expect(memberList.html).toContain('member token');
  expect(memberList.html).not.toContain('owner only');

  // Another's token: the same answer as an unknown one, nothing revoked.
  const confirm = await memberBrowser.get(`${base()}/${ownersToken.id}/revoke`);
  expect([confirm.status, headline(confirm).title]).toEqual([404, 'Not found']);
  const refused = await memberBrowser.post(`${base()}/${ownersToken.id}/revoke`, {});
  expect(refused.status).toBe(404);
  expect((await tokens()).find((t) => t.id === ownersToken.id)!.revokedAt).toBeNull();

  const adminList = await (await signedIn(admin)).get(base());
  expect(adminList.html).toContain('owner only');
  expect(adminList.html).toContain('member token');
  expect(adminList.html).toContain(member.email);

  expect((await memberBrowser.post(`${base()}/${membersToken.id}/revoke`, {})).url).toBe(`${stack.url}${base()}?notice=api-token-revoked`);
  // The owner revokes the member's token too (already revoked: it stays revoked at its first time).
  const first = (await tokens()).find((t) => t.id === membersToken.id)!.revokedAt;
  expect((await ownerBrowser.post(`${base()}/${membersToken.id}/revoke`, {})).status).toBe(200);
  expect((await tokens()).find((t) => t.id === membersToken.id)!.revokedAt).toEqual(first);
});

test.each([
  ['an empty name', { name: '   ' }, /^name: /],
  ['a name over 64 characters', { name: 'x'.repeat(65) }, /^name: /],
  ['an expiry that is not a number', { expiresInDays: 'soon' }, /^expiresInDays: "soon" is not a number of days/],
  ['an expiry over 90 days', { expiresInDays: '91' }, /^expiresInDays: /],
  ['an expiry of 0 days', { expiresInDays: '0' }, /^expiresInDays: /],
  ['an access that is neither read nor write', { access: 'admin' }, /^scope\.access: must be 'read' or 'write'\.$/],
  ['a read token with an environment', { access: 'read' }, /^scope\.environments: a read credential releases nowhere/],
  ['components chosen but none ticked', { components: 'chosen' }, /^componentIds: tick at least one/],
  ['components neither all nor chosen', { components: 'some' }, /^components: /],
  ['an environment the organization does not have', { environments: 'qa' }, /^scope\.environments: no such environment in this organization: qa /],
  ['a component id that is not one of the organization', { components: 'chosen', componentIds: 'not-an-id' }, /^scope\.componentIds: not components of this organization: not-an-id\.$/],
])('%s: the form again (422) with the field named and what was typed, nothing created', async (_case, over, message) => {
  const { post } = await signedIn(owner);
  const before = await tokens();
  const answer = await post(base(), aToken('typed name', over));
  expect(answer.status).toBe(422);
  expect(headline(answer).message).toMatch(message);
  expect(answer.html).toContain(`value="${'name' in over ? over.name : 'typed name'}"`);
  expect(await tokens()).toEqual(before);
});

test('a viewer gets read tokens only: write is disabled with the reason, and refused when sent anyway', async () => {
  const viewer = await aMemberWith('viewer');
  const { page, post } = await signedIn(viewer);
  expect(page.html).toContain('Your role here is viewer: its credentials only read.');
  expect(page.html).toMatch(/id="token-access-write" name="access" value="write" disabled aria-describedby="token-write-note"/);
  const before = await tokens();
  const refused = await post(base(), aToken('viewer write'));
  expect(refused.status).toBe(403);
  expect(headline(refused).message).toMatch(/^Your role in this organization is viewer: /);
  expect(refused.html).toContain('value="viewer write"');
  expect(await tokens()).toEqual(before);
  const readOnly = withoutEnvironments(aToken('viewer read', { access: 'read' }));
  expect((await post(base(), readOnly)).status).toBe(200);
});

test('a form without the CSRF token changes nothing (403)', async () => {
  const { browser } = await signedIn(owner);
  const before = await tokens();
  const answer = await browser.open(`${stack.url}${base()}`, { method: 'POST', form: aToken('forged') });
  expect([answer.status, headline(answer).title]).toEqual([403, 'This form expired']);
  expect(await tokens()).toEqual(before);
});

test('revocations racing each other all answer done, and the token is revoked once, with one audit row', async () => {
  const { post, page } = await signedIn(owner);
  expect(csrfOf(page)).toBeTruthy();
  await post(base(), aToken('raced'));
  const token = (await tokens()).find((t) => t.name === 'raced')!;
  const answers = await Promise.all(Array.from({ length: 6 }, () => post(`${base()}/${token.id}/revoke`, {})));
  expect(answers.map((a) => [a.status, a.url])).toEqual(answers.map(() => [200, `${stack.url}${base()}?notice=api-token-revoked`]));
  expect((await tokens()).find((t) => t.id === token.id)!.revokedAt).not.toBeNull();
  const audit = await stack.domain.repos.auditTrail.list(orgId, { kinds: [AuditKind.ApiTokenRevoked], limit: 100 });
  expect(audit.filter((e) => JSON.stringify(e.details).includes(token.id))).toHaveLength(1);
});

test('parallel creations stop at the per-person limit: the others get the form again (409) with the limit named', async () => {
  const someone = await aMemberWith('member');
  const { post } = await signedIn(someone);
  const limit = API_TOKEN_LIMITS.tokensPerCreator;
  const answers = await Promise.all(Array.from({ length: limit + 6 }, (_, i) => post(base(), aToken(`parallel ${i}`))));
  expect(answers.filter((a) => a.status === 200)).toHaveLength(limit);
  const refused = answers.filter((a) => a.status !== 200);
  expect(refused.map((a) => [a.status, headline(a).message])).toEqual(
    refused.map(() => [409, `You already have ${limit} active API tokens in this organization: revoke one you no longer use, then create this one.`]),
  );
  expect((await tokens()).filter((t) => t.createdBy === someone.id)).toHaveLength(limit);
});
