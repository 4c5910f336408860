/* eslint-disable @typescript-eslint/no-explicit-any -- tool results are JSON, checked by assertions */
import { aComponent, aMemberOf } from '@cp/db/testing';
import type { Component, User } from '@cp/domain';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createTestDomain, type TestDomain } from './support/domain.js';
import { aUser, startHarness, type Harness } from './support/harness.js';

/*
 * Roles through the tools, over real HTTP: a viewer holding an mcp:write token reads, but a write
 * tool answers a tool error that names the role (the domain's FORBIDDEN, mapped in tools/errors.ts);
 * list_organizations tells each caller their role.
 */
let domain: TestDomain;
let h: Harness;
let owner: User;
let viewer: User;
let component: Component;
let asViewer: Client;
let asOwner: Client;

beforeAll(async () => {
  domain = await createTestDomain();
  h = await startHarness({ domain: domain.deps });
  owner = await aUser(h.domain, `owner-${Date.now()}@example.com`);
  viewer = await aMemberOf(domain.database, owner.defaultOrganizationId, 'viewer');
  component = await aComponent(domain.deps.repos, {
    organizationId: owner.defaultOrganizationId,
    createdBy: owner.id,
    name: 'Badge',
    tags: ['ui'],
  });
  asViewer = await h.connect(await h.tokenFor(viewer, { scope: 'mcp:read mcp:write' }));
  asOwner = await h.connect(await h.tokenFor(owner));
});
afterAll(async () => {
  await h.close();
  await domain.close();
});

type Result = { structuredContent?: Record<string, any>; isError?: boolean };
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as Result;

test("list_organizations returns the caller's role in each organization", async () => {
  const organizations = (await call(asViewer, 'list_organizations')).structuredContent!
    .organizations as { id: string; role: string }[];
  expect(organizations.map((o) => [o.id, o.role]).sort()).toEqual(
    [
      [owner.defaultOrganizationId, 'viewer'],
      [viewer.defaultOrganizationId, 'owner'],
    ].sort(),
  );
});

test('a viewer with an mcp:write token reads the component, and edit_component_tags is a tool error naming the role', async () => {
  const read = await call(asViewer, 'list_variants', { componentId: component.id });
  expect(read.isError).toBeFalsy();
  const edit = await call(asViewer, 'edit_component_tags', {
    componentId: component.id,
    add: ['viewer-was-here'],
  });
  expect(edit.isError).toBe(true);
  expect(edit.structuredContent!.error.code).toBe('FORBIDDEN');
  expect(edit.structuredContent!.error.message).toMatch(
    /^Your role in this organization is viewer: only owners, admins and members can edit tags\./,
  );
  expect((await domain.deps.repos.components.findById(component.id))!.tags).toEqual(['ui']);

  // The owner's same call works: the refusal was the role, not the request.
  const owned = await call(asOwner, 'edit_component_tags', {
    componentId: component.id,
    add: ['owner-was-here'],
  });
  expect(owned.structuredContent).toMatchObject({ success: true, tags: ['ui', 'owner-was-here'] });
});
