import type { Role, User } from '@cp/domain';
import { aMembership } from '../support/builders.js';
import {
  anAccount,
  startDashboardStack,
  type DashboardStack,
} from '../support/dashboard-server.js';
import { tableAfter } from '../support/html.js';
import { headline, signedInBrowser, type Page, type SignedInBrowser } from '../support/sign-in.js';

/*
 * The members page over real HTTP: who may read it, change roles, remove, transfer and leave, and
 * what the organization keeps whatever the order of concurrent requests (always an owner).
 * Each test builds its own organization, so the tests do not depend on one another.
 */

let stack: DashboardStack;
beforeAll(async () => {
  stack = await startDashboardStack();
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

interface Person {
  readonly user: User;
  readonly browser: SignedInBrowser;
}

/** An owner's organization and one signed-in person per role in `roles` (the owner first). */
async function aTeam(roles: Role[]): Promise<{ orgId: string; people: Person[] }> {
  const owner = await anAccount(stack.auth);
  const orgId = owner.defaultOrganizationId;
  const people: Person[] = [
    { user: owner, browser: await signedInBrowser(stack.url, `/orgs/${orgId}/members`, owner) },
  ];
  for (const role of roles) {
    const user = await anAccount(stack.auth);
    await aMembership(stack.db, user, orgId, role);
    people.push({
      user,
      browser: await signedInBrowser(stack.url, `/orgs/${orgId}/members`, user),
    });
  }
  return { orgId, people };
}

const outcome = (page: Page) => ({ status: page.status, ...headline(page) });
const rolesOf = async (orgId: string) =>
  (await stack.domain.repos.members.list(orgId)).map((m) => [m.email, m.role]);
const roleForm = (orgId: string, who: User) => `/orgs/${orgId}/members/${who.id}/role`;
/** The organization's audit rows, less the one its owner's sign-up wrote (these tests read what came after). */
const auditKinds = async (orgId: string) =>
  (
    await stack.db!.prisma.auditEvent.findMany({
      where: { organizationId: orgId, NOT: { kind: 'organization.created', details: { path: ['name'], string_ends_with: "'s organization" } } },
      orderBy: { seq: 'asc' },
    })
  ).map((e) => [e.kind, e.details]);

test('a viewer reads the members (email, role, joined) with the buttons disabled and why; the forms are refused with 403 naming the role', async () => {
  const { orgId, people } = await aTeam(['viewer', 'member']);
  const [owner, viewer, member] = people as [Person, Person, Person];
  const page = await viewer.browser.get(`/orgs/${orgId}/members`);
  expect(page.status).toBe(200);
  const rows = tableAfter(page, 'Members');
  expect(rows.map((row) => row.slice(0, 2))).toEqual([
    [owner.user.email, 'owner'],
    [member.user.email, 'member'],
    [viewer.user.email, 'viewer'],
  ]);
  expect(rows[0]![2]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
  expect(page.html).toContain(
    'Your role is viewer: only owners and admins change roles or remove members.',
  );
  expect(page.html).toMatch(/aria-label="Remove [^"]+" disabled/);

  expect(
    outcome(
      await viewer.browser.post(roleForm(orgId, member.user), { from: 'member', role: 'viewer' }),
    ),
  ).toEqual({
    status: 403,
    title: 'Not allowed',
    message:
      "Your role in this organization is viewer: only owners and admins can change members' roles. Ask an owner or admin for a role that can.",
  });
  expect(
    outcome(await member.browser.post(`/orgs/${orgId}/members/${viewer.user.id}/remove`, {})),
  ).toMatchObject({
    status: 403,
    message: expect.stringContaining(
      'Your role in this organization is member: only owners and admins can remove members.',
    ),
  });
  expect(await rolesOf(orgId)).toEqual(
    expect.arrayContaining([
      [viewer.user.email, 'viewer'],
      [member.user.email, 'member'],
    ]),
  );
  expect(await auditKinds(orgId)).toEqual([]);
});

test('an admin changes and removes roles below owner, but cannot touch owners or their own role', async () => {
  const { orgId, people } = await aTeam(['admin', 'member', 'viewer']);
  const [owner, admin, member, viewer] = people as [Person, Person, Person, Person];
  const changed = await admin.browser.post(roleForm(orgId, member.user), {
    from: 'member',
    role: 'viewer',
  });
  expect([changed.status, changed.url, headline(changed).message]).toEqual([
    200,
    `${stack.url}/orgs/${orgId}/members?notice=role-changed`,
    '',
  ]);
  expect(changed.html).toContain('Role changed.');
  expect(
    outcome(
      await admin.browser.post(roleForm(orgId, viewer.user), { from: 'viewer', role: 'owner' }),
    ),
  ).toMatchObject({
    status: 403,
    message: expect.stringMatching(
      /^Your role in this organization is admin: only owners can make someone an owner/,
    ),
  });
  expect(
    outcome(
      await admin.browser.post(roleForm(orgId, owner.user), { from: 'owner', role: 'member' }),
    ),
  ).toMatchObject({ status: 403 });
  expect(
    outcome(
      await admin.browser.post(roleForm(orgId, admin.user), { from: 'admin', role: 'member' }),
    ),
  ).toMatchObject({
    status: 403,
    message: expect.stringMatching(/^Nobody changes their own role/),
  });
  expect(
    outcome(
      await admin.browser.post(roleForm(orgId, viewer.user), { from: 'viewer', role: 'boss' }),
    ),
  ).toEqual({
    status: 400,
    title: 'That did not work',
    message: 'role: choose one of owner, admin, member, viewer.',
  });
  const removed = await admin.browser.post(`/orgs/${orgId}/members/${viewer.user.id}/remove`, {});
  expect([removed.status, removed.url]).toEqual([
    200,
    `${stack.url}/orgs/${orgId}/members?notice=member-removed`,
  ]);
  expect((await rolesOf(orgId)).sort()).toEqual(
    [
      [owner.user.email, 'owner'],
      [admin.user.email, 'admin'],
      [member.user.email, 'viewer'],
    ].sort(),
  );
  expect(await auditKinds(orgId)).toEqual([
    ['member.role_changed', { before: 'member', after: 'viewer' }],
    ['member.removed', { before: 'viewer', after: null }],
  ]);
  // The admin's page shows an owner's row disabled, with the reason.
  expect((await admin.browser.get(`/orgs/${orgId}/members`)).html).toContain(
    'Your role is admin: only owners change or remove an owner.',
  );
});

test('the last owner cannot leave or demote themselves; the page says so', async () => {
  const { orgId, people } = await aTeam(['member']);
  const [owner] = people as [Person];
  expect(outcome(await owner.browser.post(`/orgs/${orgId}/leave`, {}))).toEqual({
    status: 409,
    title: 'The organization needs an owner',
    message:
      'You are the last owner of this organization. Make another member an owner first (transfer ownership), or delete the organization.',
  });
  expect(
    outcome(
      await owner.browser.post(roleForm(orgId, owner.user), { from: 'owner', role: 'admin' }),
    ),
  ).toMatchObject({ status: 403 });
  const page = await owner.browser.get(`/orgs/${orgId}/members`);
  expect(page.html).toMatch(
    /Leave this organization<\/button><span class="hint" id="why-leave">You are the last owner/,
  );
  expect(page.html).toMatch(/aria-label="Leave [^"]+" disabled/);
  expect((await rolesOf(orgId))[0]).toEqual([owner.user.email, 'owner']);
});

test('two admins changing one member at once: one wins, the other gets 409 and nothing half-done', async () => {
  const { orgId, people } = await aTeam(['admin', 'admin', 'member']);
  const [, a, b, member] = people as [Person, Person, Person, Person];
  const pages = await Promise.all([
    a.browser.post(roleForm(orgId, member.user), { from: 'member', role: 'viewer' }),
    b.browser.post(roleForm(orgId, member.user), { from: 'member', role: 'admin' }),
  ]);
  expect(pages.map((p) => p.status).sort()).toEqual([200, 409]);
  const lost = pages.find((p) => p.status === 409)!;
  expect(headline(lost).message).toMatch(
    /^This member's role changed meanwhile: it is (viewer|admin) now, not member\. Reload the members page and decide again\.$/,
  );
  expect(await auditKinds(orgId)).toHaveLength(1);
});

test('two owners demoting each other at once: one wins, the other is refused, one owner remains', async () => {
  const { orgId, people } = await aTeam(['owner']);
  const [a, b] = people as [Person, Person];
  const pages = await Promise.all([
    a.browser.post(roleForm(orgId, b.user), { from: 'owner', role: 'admin' }),
    b.browser.post(roleForm(orgId, a.user), { from: 'owner', role: 'admin' }),
  ]);
  expect(pages.map((p) => p.status).sort()).toEqual([200, 403]);
  expect((await rolesOf(orgId)).map(([, role]) => role)).toEqual(['owner', 'admin']);
});

test('an owner transfers ownership and becomes admin; a member leaves and lands on their organizations', async () => {
  const { orgId, people } = await aTeam(['member', 'viewer']);
  const [owner, member, viewer] = people as [Person, Person, Person];
  const transferred = await owner.browser.post(
    `/orgs/${orgId}/members/${member.user.id}/transfer`,
    {},
  );
  expect([transferred.status, transferred.url]).toEqual([
    200,
    `${stack.url}/orgs/${orgId}/members?notice=ownership-transferred`,
  ]);
  expect((await rolesOf(orgId)).slice(0, 2)).toEqual([
    [member.user.email, 'owner'],
    [owner.user.email, 'admin'],
  ]);
  expect(
    outcome(await owner.browser.post(`/orgs/${orgId}/members/${viewer.user.id}/transfer`, {})),
  ).toMatchObject({
    status: 403,
    message: expect.stringMatching(
      /^Your role in this organization is admin: only owners can transfer ownership/,
    ),
  });

  const left = await viewer.browser.post(`/orgs/${orgId}/leave`, {});
  expect([left.status, left.url]).toEqual([200, `${stack.url}/orgs?notice=left`]);
  expect(left.html).toContain('You left the organization.');
  expect(left.html).not.toContain(`/orgs/${orgId}/components`);
  expect((await stack.domain.repos.users.findById(viewer.user.id))!.defaultOrganizationId).toBe(
    viewer.user.defaultOrganizationId,
  );
  expect((await auditKinds(orgId)).map(([kind]) => kind)).toEqual([
    'member.ownership_transferred',
    'member.left',
  ]);
});

test('creating, renaming and deleting an organization: owners only, the name typed to delete, defaults moved', async () => {
  const { orgId: firstOrg, people } = await aTeam([]);
  const [owner] = people as [Person];
  const created = await owner.browser.post('/orgs', { name: '  Team Two ' });
  const orgId = /\/orgs\/([0-9a-f-]{36})\/components$/.exec(created.url)?.[1];
  expect([created.status, orgId]).toEqual([200, expect.any(String)]);
  const environments = await stack.domain.repos.environments.listForOrganization(orgId!);
  expect(environments.map((e) => [e.name, e.protected])).toEqual([
    ['prod', true],
    ['staging', false],
  ]);
  expect(await auditKinds(orgId!)).toEqual([['organization.created', { name: 'Team Two' }]]);
  expect(outcome(await owner.browser.post('/orgs', { name: ' ' }))).toMatchObject({
    status: 400,
    message: 'name: an organization name must be 1-100 characters without control characters.',
  });

  const admin = await anAccount(stack.auth);
  await aMembership(stack.db, admin, orgId!, 'admin');
  // The admin's default is the team: deleting it must give them their own organization back as default.
  await stack.db!.prisma.user.update({
    where: { id: admin.id },
    data: { defaultOrganizationId: orgId! },
  });
  const asAdmin = await signedInBrowser(stack.url, `/orgs/${orgId}/settings`, admin);
  expect(asAdmin.page.html).toContain(
    'Your role is admin: only owners rename or delete the organization.',
  );
  expect(outcome(await asAdmin.post(`/orgs/${orgId}/rename`, { name: 'Mine' }))).toMatchObject({
    status: 403,
    message: expect.stringMatching(
      /^Your role in this organization is admin: only owners can rename the organization/,
    ),
  });
  expect(outcome(await asAdmin.post(`/orgs/${orgId}/delete`, { name: 'Team Two' }))).toMatchObject({
    status: 403,
  });

  const renamed = await owner.browser.post(`/orgs/${orgId}/rename`, { name: 'Team 2' });
  expect([renamed.status, renamed.url]).toEqual([
    200,
    `${stack.url}/orgs/${orgId}/settings?notice=org-renamed`,
  ]);
  expect(outcome(await owner.browser.post(`/orgs/${orgId}/delete`, { name: 'Team Two' }))).toEqual({
    status: 400,
    title: 'That did not work',
    message: 'name: type the organization\'s name exactly ("Team 2") to delete it.',
  });
  const deleted = await owner.browser.post(`/orgs/${orgId}/delete`, { name: 'Team 2' });
  expect([deleted.status, deleted.url]).toEqual([200, `${stack.url}/orgs?notice=org-deleted`]);
  expect(await stack.domain.repos.organizations.findById(orgId!)).toBeNull();
  expect((await stack.domain.repos.users.findById(admin.id))!.defaultOrganizationId).toBe(
    admin.defaultOrganizationId,
  );
  expect(
    (await stack.domain.repos.organizations.listForUser(owner.user.id)).map((o) => o.id),
  ).toEqual([firstOrg]);
});

test('malformed and unknown ids answer 404, a form without its CSRF token 403, never a 500', async () => {
  const { orgId, people } = await aTeam(['member']);
  const [owner, member] = people as [Person, Person];
  const NOT_FOUND = {
    status: 404,
    title: 'Not found',
    message: 'There is nothing here, or it is not in one of your organizations.',
  };
  for (const path of [
    `/orgs/not-a-uuid/members/${member.user.id}/role`,
    `/orgs/${orgId}/members/not-a-uuid/role`,
    `/orgs/${orgId}/members/0f8fad5b-d9cb-469f-a165-70867728950e/remove`,
    '/orgs/not-a-uuid/leave',
    '/orgs/not-a-uuid/delete',
    '/orgs/not-a-uuid/rename',
  ]) {
    expect({
      path,
      ...outcome(await owner.browser.post(path, { from: 'member', role: 'viewer', name: 'x' })),
    }).toEqual({ path, ...NOT_FOUND });
  }
  expect(outcome(await owner.browser.get('/orgs/not-a-uuid/members'))).toEqual(NOT_FOUND);
  const forged = await owner.browser.browser.open(`${stack.url}${roleForm(orgId, member.user)}`, {
    method: 'POST',
    form: { from: 'member', role: 'viewer' },
  });
  expect(outcome(forged)).toMatchObject({ status: 403, title: 'This form expired' });
  expect((await rolesOf(orgId))[1]).toEqual([member.user.email, 'member']);
});
