import { aComponent } from '@cp/db/testing';
import type { Component, Role, User } from '@cp/domain';
import { aMembership } from '../support/builders.js';
import {
  anAccount,
  startDashboardStack,
  type DashboardStack,
} from '../support/dashboard-server.js';
import { headline, signedInBrowser, type Page, type SignedInBrowser } from '../support/sign-in.js';

/*
 * Roles on the forms of existing pages, over real HTTP: a viewer's tag edit and a member's flow
 * changes are refused with 403 naming the role (whatever the page showed), nothing changes and
 * nothing is recorded; the pages show those controls disabled with the reason. An admin's same
 * change goes through and is recorded in the audit trail.
 */

let stack: DashboardStack;
let owner: User;
let orgId: string;
let component: Component;
let flowId: string;
beforeAll(async () => {
  stack = await startDashboardStack();
  owner = await anAccount(stack.auth);
  orgId = owner.defaultOrganizationId;
  component = await aComponent(stack.domain.repos, {
    organizationId: orgId,
    createdBy: owner.id,
    name: 'Gated card',
    tags: ['kept'],
  });
  const owned = await signedInBrowser(stack.url, `/orgs/${orgId}/flows`, owner);
  const created = await owned.post(`/orgs/${orgId}/flows`, { name: 'Checkout' });
  flowId = /\/flows\/([0-9a-f-]{36})\?/.exec(created.url)![1]!;
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

async function signedInAs(role: Role, path: string): Promise<SignedInBrowser & { user: User }> {
  const user = await anAccount(stack.auth);
  await aMembership(stack.db, user, orgId, role);
  return { ...(await signedInBrowser(stack.url, path, user)), user };
}
const outcome = (page: Page) => ({ status: page.status, ...headline(page) });
/** Rows recorded for others' changes (the owner's set-up, tags and flow included, is left out). */
const audited = (kind: string) =>
  stack.db!.prisma.auditEvent.findMany({
    where: { organizationId: orgId, kind, actorId: { not: owner.id } },
    orderBy: { seq: 'asc' },
  });

test("a viewer's tag edit is 403 naming the role; the tags stay; the page shows the form disabled with the reason", async () => {
  const { page, post } = await signedInAs('viewer', `/component/${component.id}`);
  expect(page.status).toBe(200);
  expect(page.html).toMatch(
    /<button type="submit" disabled aria-describedby="tags-role-note">Save tags<\/button>/,
  );
  expect(page.html).toContain(
    'Your role here is viewer: only owners, admins and members can edit tags.',
  );
  expect(outcome(await post(`/component/${component.id}/tags`, { tags: 'changed' }))).toEqual({
    status: 403,
    title: 'Not allowed',
    message:
      'Your role in this organization is viewer: only owners, admins and members can edit tags. Ask an owner or admin for a role that can.',
  });
  expect((await stack.domain.repos.components.findById(component.id))!.tags).toEqual(['kept']);
  expect(await audited('component.tags_changed')).toEqual([]);
});

test('a member may edit tags, and the edit is recorded with before and after', async () => {
  const { post, user } = await signedInAs('member', `/component/${component.id}`);
  const saved = await post(`/component/${component.id}/tags`, { tags: 'kept, new' });
  expect([saved.status, saved.url]).toEqual([
    200,
    `${stack.url}/component/${component.id}?notice=tags`,
  ]);
  const rows = await audited('component.tags_changed');
  expect(rows.map((row) => [row.actorId, row.componentId, row.details])).toEqual([
    [user.id, component.id, { before: ['kept'], after: ['kept', 'new'] }],
  ]);
});

test("a member's flow changes are 403 naming the role, with the flow unchanged; the pages show the controls disabled", async () => {
  const { page, post } = await signedInAs('member', `/flows/${flowId}`);
  expect(page.status).toBe(200);
  expect(page.html).toContain('Your role here is member: only owners and admins can change flows.');
  expect(page.html).toMatch(
    /<button type="submit" disabled aria-describedby="flow-role-note">Publish<\/button>/,
  );
  const before = await stack.domain.repos.flows.findById(flowId);
  const recorded = (await audited('flow.changed')).length;
  for (const [path, form, what] of [
    [`/flows/${flowId}/status`, { status: 'published' }, 'publish or unpublish flows'],
    [`/flows/${flowId}/components`, { op: 'add', component: component.id }, 'change flows'],
    [`/orgs/${orgId}/flows`, { name: 'Sneaky' }, 'create flows'],
  ] as const) {
    expect({ path, ...outcome(await post(path, form)) }).toEqual({
      path,
      status: 403,
      title: 'Not allowed',
      message: `Your role in this organization is member: only owners and admins can ${what}. Ask an owner or admin for a role that can.`,
    });
  }
  expect(await stack.domain.repos.flows.findById(flowId)).toEqual(before);
  expect((await stack.domain.repos.flows.listForOrganization(orgId)).map((f) => f.name)).toEqual([
    'Checkout',
  ]);
  expect((await audited('flow.changed')).length).toBe(recorded);
  const flows = await signedInAs('member', `/orgs/${orgId}/flows`);
  expect(flows.page.html).toMatch(
    /<button type="submit" disabled aria-describedby="flow-role-note">Create<\/button>/,
  );
});

test("an admin's same flow change goes through and is recorded", async () => {
  const { post, user } = await signedInAs('admin', `/flows/${flowId}`);
  const published = await post(`/flows/${flowId}/status`, { status: 'published' });
  expect([published.status, published.url]).toEqual([
    200,
    `${stack.url}/flows/${flowId}?notice=flow-published`,
  ]);
  const rows = await audited('flow.changed');
  expect(rows.at(-1)).toMatchObject({
    actorId: user.id,
    details: {
      flowId,
      name: 'Checkout',
      before: { status: 'draft' },
      after: { status: 'published' },
    },
  });
});
