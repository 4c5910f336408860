import type { Role, User } from '@cp/domain';
import { aMembership } from '../support/builders.js';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';
import { tableAfter } from '../support/html.js';
import { headline, signedInBrowser, type Page, type SignedInBrowser } from '../support/sign-in.js';

/*
 * Who may change an organization's environments, over real HTTP: a plain member sees them but
 * gets 403 "Not allowed" on add, rename and remove, with nothing changed; an admin of the same
 * organization, sending the same forms, changes them (so the 403 is the role, not the request).
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

/** A new account that joins the owner's organization with `role`, signed in, on its environments page. */
async function aSignedInMember(role: Role): Promise<SignedInBrowser> {
  const user = await anAccount(stack.auth);
  await aMembership(stack.db, user, orgId, role);
  return signedInBrowser(stack.url, `/orgs/${orgId}/environments`, user);
}

const base = () => `/orgs/${orgId}/environments`;
const names = async () => (await stack.domain.repos.environments.listForOrganization(orgId)).map((e) => e.name);
const idOf = async (name: string) => (await stack.domain.repos.environments.findByName(orgId, name))!.id;
const outcome = (page: Page) => ({ status: page.status, ...headline(page) });
const forbidden = (what: 'add' | 'change') => ({ status: 403, title: 'Not allowed', message: `Your role in this organization is member: only owners and admins can ${what} environments. Ask an owner or admin for a role that can.` });

test('a member sees the environments, and gets 403 on add, rename and remove, with nothing changed', async () => {
  const { page, post } = await aSignedInMember('member');
  expect([page.status, tableAfter(page, 'Environments').map((row) => row[0])]).toEqual([200, ['prod', 'staging']]);
  const before = await stack.domain.repos.environments.listForOrganization(orgId);

  expect(outcome(await post(base(), { name: 'qa' }))).toEqual(forbidden('add'));
  expect(outcome(await post(`${base()}/${await idOf('staging')}/rename`, { name: 'stage' }))).toEqual(forbidden('change'));
  expect(outcome(await post(`${base()}/${await idOf('staging')}/remove`, {}))).toEqual(forbidden('change'));

  expect(await stack.domain.repos.environments.listForOrganization(orgId)).toEqual(before);
});

test('an admin of the same organization sends the same forms and they work', async () => {
  const { post } = await aSignedInMember('admin');
  const added = await post(base(), { name: 'qa' });
  expect([added.status, added.url]).toEqual([200, `${stack.url}${base()}?notice=env-added`]);
  const renamed = await post(`${base()}/${await idOf('qa')}/rename`, { name: 'qa-eu' });
  expect([renamed.status, renamed.url]).toEqual([200, `${stack.url}${base()}?notice=env-renamed`]);
  expect((await names()).sort()).toEqual(['prod', 'qa-eu', 'staging']);
  const removed = await post(`${base()}/${await idOf('qa-eu')}/remove`, {});
  expect([removed.status, removed.url]).toEqual([200, `${stack.url}${base()}?notice=env-removed`]);
  expect((await names()).sort()).toEqual(['prod', 'staging']);
});
