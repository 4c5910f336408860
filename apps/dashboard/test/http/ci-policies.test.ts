import { AuditKind, type Role, type User } from '@cp/domain';
import { aMembership } from '../support/builders.js';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';
import { tableAfter } from '../support/html.js';
import { headline, signedInBrowser } from '../support/sign-in.js';

/*
 * CI trust policies over real HTTP: owners and admins create and delete them (after a confirmation)
 * in organization settings, the page gives the workflow for each provider with the auth server's
 * issuer, every bad field comes back as the form (422) naming it, and other roles see why not and
 * are refused with nothing changed.
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

const base = () => `/orgs/${orgId}/settings/ci-policies`;
const signedIn = (user: User) => signedInBrowser(stack.url, base(), user);

/** The form with no environment ticked (a read credential releases nowhere). */
const withoutEnvironments = (form: Record<string, string>) => Object.fromEntries(Object.entries(form).filter(([field]) => field !== 'environments'));
const policies = () => stack.domain.repos.ciTrustPolicies.listForOrganization(orgId);
const heading = async () => `CI trust policies of ${(await stack.domain.repos.organizations.findById(orgId))!.name}`;

async function aMemberWith(role: Role): Promise<User> {
  const user = await anAccount(stack.auth);
  await aMembership(stack.db, user, orgId, role);
  return user;
}

const aPolicy = (name: string, over: Record<string, string> = {}) => ({
  name,
  provider: 'github',
  ownerId: '1342004',
  repositoryId: '600213',
  repositoryName: 'acme/web',
  workflow: '.github/workflows/release.yml',
  environment: '',
  refPatterns: 'refs/tags/v*\r\n\r\nrefs/heads/main\r\n',
  requireHostedRunner: 'on',
  access: 'write',
  environments: 'staging',
  components: 'all',
  ...over,
});

test('the page gives the workflow of each provider, GitLab with the auth server as audience', async () => {
  const { page, get } = await signedIn(owner);
  expect(page.status).toBe(200);
  expect(page.html).toMatch(/<a href="[^"]*\/settings" aria-current="page">Settings<\/a>/);
  expect(page.html).toContain('No CI trust policies yet.');
  expect(page.html).toContain('permissions:\n  id-token: write');
  expect(page.html).toContain('npx @component-platform/cli push dist --publish --env staging');
  const gitlab = await get(`${base()}?provider=gitlab`);
  expect(gitlab.html).toContain(`id_tokens:\n    CPC_ID_TOKEN:\n      aud: ${stack.config.issuer}`);
  expect(gitlab.html).toContain('<option value="gitlab" selected>');
  const bad = await get(`${base()}?provider=bitbucket`);
  expect([bad.status, headline(bad).message]).toEqual([400, 'provider: "bitbucket" is not a provider: choose one from the links on the page.']);
  // The settings page leads here.
  expect((await get(`/orgs/${orgId}/settings`)).html).toContain(`href="${base()}"`);
});

test('the owner creates a policy, sees it listed, and deletes it after a confirmation; each step is in the audit trail', async () => {
  const { post, get } = await signedIn(owner);
  const created = await post(base(), aPolicy('web-release'));
  expect([created.status, created.url]).toEqual([200, `${stack.url}${base()}?provider=github&notice=ci-policy-created`]);
  const [stored] = await policies();
  expect(stored).toMatchObject({
    name: 'web-release',
    provider: 'github',
    ownerId: '1342004',
    repositoryId: '600213',
    repositoryName: 'acme/web',
    workflow: '.github/workflows/release.yml',
    environment: null,
    refPatterns: ['refs/tags/v*', 'refs/heads/main'],
    requireHostedRunner: true,
    createdBy: owner.id,
    scope: { organizationId: orgId, componentIds: null, environments: ['staging'], access: 'write', protectedEnvironments: false },
  });
  expect(tableAfter(created, await heading())).toEqual([
    [
      'web-release',
      'acme/web (GitHub Actions; owner 1342004, repository 600213)',
      '.github/workflows/release.yml · any environment · refs/tags/v*, refs/heads/main · hosted runners only',
      'write · staging · all components',
      expect.stringMatching(new RegExp(` UTC by ${owner.email.replace(/[.]/g, '\\.')}$`)),
      'Delete…',
    ],
  ]);

  const taken = await post(base(), aPolicy('web-release', { repositoryId: '7' }));
  expect([taken.status, headline(taken).message]).toEqual([409, "A CI trust policy named 'web-release' already exists in this organization: choose another name."]);
  expect(taken.html).toContain('value="7"');

  const confirm = await get(`${base()}/${stored!.id}/delete`);
  expect([confirm.status, headline(confirm).title]).toEqual([200, 'Delete the CI trust policy web-release?']);
  expect(await policies()).toHaveLength(1);
  const deleted = await post(`${base()}/${stored!.id}/delete`, {});
  expect([deleted.status, deleted.url]).toEqual([200, `${stack.url}${base()}?notice=ci-policy-deleted`]);
  expect(await policies()).toEqual([]);
  expect((await get(`${base()}/${stored!.id}/delete`)).status).toBe(404);

  const audit = await stack.domain.repos.auditTrail.list(orgId, { kinds: [AuditKind.CiPolicyCreated, AuditKind.CiPolicyDeleted], limit: 10 });
  expect(audit.map((e) => e.kind)).toEqual([AuditKind.CiPolicyDeleted, AuditKind.CiPolicyCreated]);
  const trail = await get(`/orgs/${orgId}/audit`);
  expect(trail.html).toContain('CI trust policy deleted');
});

test('a GitLab policy with an environment, narrowed to read', async () => {
  const { post } = await signedIn(await aMemberWith('admin'));
  // A read policy releases nowhere: no environment ticked.
  const readOnly = withoutEnvironments(aPolicy('gitlab-read', { provider: 'gitlab', workflow: '.gitlab-ci.yml', environment: 'production', refPatterns: '', requireHostedRunner: '', access: 'read' }));
  const created = await post(base(), readOnly);
  expect(created.url).toBe(`${stack.url}${base()}?provider=gitlab&notice=ci-policy-created`);
  expect((await policies()).find((p) => p.name === 'gitlab-read')).toMatchObject({
    provider: 'gitlab',
    environment: 'production',
    refPatterns: [],
    requireHostedRunner: false,
    scope: { access: 'read', environments: [] },
  });
});

test.each([
  ['a provider that is not offered', { provider: 'bitbucket' }, /^provider: 'github' \(GitHub Actions\) or 'gitlab' \(gitlab\.com\)\.$/],
  ['an empty name', { name: '' }, /^name: /],
  ['an owner name instead of its id', { ownerId: 'acme' }, /^ownerId: the numeric repository_owner_id /],
  ['an empty repository id', { repositoryId: '' }, /^repositoryId: /],
  ['a workflow outside .github/workflows', { workflow: 'release.yml' }, /^workflow: GitHub Actions workflows live in \.github\/workflows\//],
  ['a ref pattern that is not a ref', { refPatterns: 'main' }, /^refPatterns: "main": a pattern starts with refs\//],
  ['an access that is neither read nor write', { access: 'all' }, /^scope\.access: /],
  ['an environment the organization does not have', { environments: 'qa' }, /^scope\.environments: /],
])('%s: the form again (422) with the field named and what was typed, nothing created', async (_case, over, message) => {
  const { post } = await signedIn(owner);
  const before = await policies();
  const answer = await post(base(), aPolicy(`typed-${crypto.randomUUID().slice(0, 8)}`, over));
  expect(answer.status).toBe(422);
  expect(headline(answer).message).toMatch(message);
  expect(answer.html).toContain('value="acme/web"');
  expect(await policies()).toEqual(before);
});

test('a member sees why not, with the form disabled, and is refused (403) on every form with nothing changed', async () => {
  await (await signedIn(owner)).post(base(), aPolicy('kept'));
  const kept = (await policies()).find((p) => p.name === 'kept')!;
  const { page, post, get } = await signedIn(await aMemberWith('member'));
  expect(page.status).toBe(200);
  expect(page.html).toContain('Your role here is member: only owners and admins can see, create or delete CI trust policies.');
  expect(page.html).toMatch(/<button type="submit" disabled aria-describedby="ci-policies-role-note">Create policy<\/button>/);
  expect(page.html).not.toContain('kept');
  const before = await policies();
  for (const answer of [await post(base(), aPolicy('sneaky')), await post(`${base()}/${kept.id}/delete`, {}), await get(`${base()}/${kept.id}/delete`)]) {
    expect({ url: answer.url, status: answer.status, message: headline(answer).message }).toEqual({ url: answer.url, status: 403, message: expect.stringMatching(/^Your role in this organization is member: only owners and admins can /) });
  }
  expect(await policies()).toEqual(before);
});
