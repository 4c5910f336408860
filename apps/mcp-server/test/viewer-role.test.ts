/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call -- tool results are JSON, checked by assertions */
import { aComponent, aMemberOf } from '@cp/db/testing';
import type { Component, User } from '@cp/domain';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createTestDomain, type TestDomain } from './support/domain.js';
import { aUser, startHarness, type Harness } from './support/harness.js';
import { aProject, html, runInShell } from './support/upload.js';

/*
 * A viewer reads but changes nothing, even with an mcp:write token: the write tools answer a
 * tool error that names the role and who can (the domain's check, over real HTTP and a database).
 */
let domain: TestDomain;
let h: Harness;
let owner: User;
let viewer: User;
let component: Component;
let asViewer: Client;

type Result = { structuredContent?: Record<string, any>; isError?: boolean };
const callTool = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as Result;
const refusal = (result: Result) => {
  expect(result.isError).toBe(true);
  return result.structuredContent!.error as { code: string; message: string };
};

beforeAll(async () => {
  domain = await createTestDomain();
  h = await startHarness({ domain: domain.deps });
  owner = await aUser(h.domain);
  viewer = await aMemberOf(domain.database, owner.defaultOrganizationId, 'viewer');
  component = await aComponent(domain.deps.repos, {
    organizationId: owner.defaultOrganizationId,
    createdBy: owner.id,
    name: 'Read only card',
  });
  asViewer = await h.connect(await h.tokenFor(viewer, { scope: 'mcp:read mcp:write' }));
});
afterAll(async () => {
  await h.close();
  await domain.close();
});

const auditRows = () =>
  domain.database.prisma.auditEvent.count({
    where: { organizationId: owner.defaultOrganizationId },
  });

test('upload_component by a viewer: a tool error naming the role; no session is started', async () => {
  const sessions = await domain.uploadSessionsOf(viewer.id);
  for (const args of [
    { name: 'New from viewer', organization: owner.defaultOrganizationId },
    { componentId: component.id },
  ]) {
    const error = refusal(await callTool(asViewer, 'upload_component', args));
    expect(error.code).toBe('FORBIDDEN');
    expect(error.message).toMatch(
      /^Your role in this organization is viewer: only owners, admins and members can upload components\./,
    );
  }
  expect(await domain.uploadSessionsOf(viewer.id)).toBe(sessions);
});

test('confirm_upload by someone made a viewer after starting the upload: refused, nothing recorded', async () => {
  const member = await aMemberOf(domain.database, owner.defaultOrganizationId, 'member');
  const asMember = await h.connect(await h.tokenFor(member));
  const started = await callTool(asMember, 'upload_component', { componentId: component.id });
  expect(started.isError).toBeFalsy();
  const project = await aProject(html('Demoted'));
  await runInShell('sh', started.structuredContent!.curlCommand as string, project.dir);
  await domain.database.prisma.membership.update({
    where: {
      userId_organizationId: { userId: member.id, organizationId: owner.defaultOrganizationId },
    },
    data: { role: 'viewer' },
  });
  const before = await auditRows();
  const error = refusal(
    await callTool(asMember, 'confirm_upload', { uploadId: started.structuredContent!.uploadId }),
  );
  expect(error.code).toBe('FORBIDDEN');
  expect(error.message).toContain('Your role in this organization is viewer');
  expect((await domain.deps.repos.components.findById(component.id))!.variantsCount).toBe(1);
  expect(await auditRows()).toBe(before);
});

test('edit_component_tags by a viewer: refused; reading still works', async () => {
  const error = refusal(
    await callTool(asViewer, 'edit_component_tags', { componentId: component.id, add: ['x'] }),
  );
  expect(error.code).toBe('FORBIDDEN');
  expect(error.message).toContain('edit tags');
  expect((await domain.deps.repos.components.findById(component.id))!.tags).toEqual([]);
  const read = await callTool(asViewer, 'list_components', {
    organizationId: owner.defaultOrganizationId,
  });
  expect(read.isError).toBeFalsy();
  expect(read.structuredContent!.components.map((c: { name: string }) => c.name)).toEqual([
    'Read only card',
  ]);
});
