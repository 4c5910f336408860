/* eslint-disable @typescript-eslint/no-explicit-any -- tool results are JSON, checked by assertions */
import { aComponent, aMemberOf, aVariant } from '@cp/db/testing';
import type { Component, User, Variant } from '@cp/domain';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createTestDomain, type TestDomain } from './support/domain.js';
import { aUser, rpc, startHarness, toolCall, type Harness } from './support/harness.js';

/*
 * publish_component over real HTTP (the SDK client, createApp, the database): prod is protected in
 * every new organization, so only its owners and admins release there; a member's call becomes a
 * release request (status pending_approval) that names who can approve it; a viewer's is a tool error.
 */
let domain: TestDomain;
let h: Harness;
let owner: User;
let admin: User;
let member: User;
let component: Component;
let v1: Variant;
let v2: Variant;
const as: Record<'owner' | 'admin' | 'member', Client> = {} as never;

beforeAll(async () => {
  domain = await createTestDomain();
  h = await startHarness({ domain: domain.deps });
  owner = await aUser(h.domain, `owner-${Date.now()}@example.com`);
  const organizationId = owner.defaultOrganizationId;
  admin = await aMemberOf(domain.database, organizationId, 'admin', {
    email: `admin-${Date.now()}@example.com`,
  });
  member = await aMemberOf(domain.database, organizationId, 'member');
  component = await aComponent(domain.deps.repos, {
    organizationId,
    createdBy: owner.id,
    name: 'Price tag',
  });
  v1 = (await domain.deps.repos.variants.findLatest(component.id))!;
  v2 = await aVariant(domain.deps.repos, { componentId: component.id, createdBy: member.id });
  for (const [role, user] of [
    ['owner', owner],
    ['admin', admin],
    ['member', member],
  ] as const)
    as[role] = await h.connect(await h.tokenFor(user));
});
afterAll(async () => {
  await h.close();
  await domain.close();
});

type Result = { structuredContent?: Record<string, any>; isError?: boolean };
const publish = async (client: Client, args: Record<string, unknown>) =>
  (await client.callTool({
    name: 'publish_component',
    arguments: { componentId: component.id, ...args },
  })) as Result;
/** The variant's HTML where a confirmed upload leaves it (get_component reads it). */
async function storeHtml(variant: Variant): Promise<void> {
  const url = await domain.deps.objects.presignPut(variant.objectKey, {
    expiresInSeconds: 60,
    contentType: 'text/html',
  });
  const res = await fetch(url, {
    method: 'PUT',
    body: '<!doctype html><p>v2</p>',
    headers: { 'content-type': 'text/html' },
  });
  expect(res.ok).toBe(true);
}
const prodRelease = () => domain.deps.repos.releases.findCurrent(component.id, prodId);
let prodId: string;

test('a new organization has prod protected and staging open; get_component says which', async () => {
  const envs = await domain.deps.repos.environments.listForOrganization(
    owner.defaultOrganizationId,
  );
  expect(envs.map((e) => [e.name, e.protected])).toEqual([
    ['prod', true],
    ['staging', false],
  ]);
  prodId = envs.find((e) => e.name === 'prod')!.id;
  await storeHtml(v2);
  await publish(as.owner, { environment: 'staging' });
  await publish(as.owner, { environment: 'prod' });
  for (const [name, isProtected] of [
    ['staging', false],
    ['prod', true],
  ] as const) {
    const read = (await as.member.callTool({
      name: 'get_component',
      arguments: { componentId: component.id, environment: name },
    })) as Result;
    expect(read.structuredContent!.resolvedEnvironment).toMatchObject({
      name,
      protected: isProtected,
      variantId: v2.id,
    });
  }
});

test("a member's publish to prod answers with a release request naming who can approve; asking again answers the same one", async () => {
  const [latest, back] = await Promise.all([
    publish(as.member, { environment: 'prod' }),
    publish(as.member, { environment: 'prod', variantId: v1.id }),
  ]);
  const answers = [latest, back];
  for (const result of answers) {
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      success: true,
      status: 'pending_approval',
      componentId: component.id,
      environment: 'prod',
      request: { state: 'pending', approvers: [owner.email, admin.email] },
    });
    expect(result.structuredContent!.message).toContain(`(${owner.email}, ${admin.email}) can approve or decline it`);
    expect(result.structuredContent!.message).toContain('dashboard');
    expect(result.structuredContent!.releasedAt).toBeUndefined();
  }
  // One request: both calls answer it (whichever came first made it, with its variant).
  const ids = new Set(answers.map((r) => (r.structuredContent!.request as { id: string }).id));
  expect(ids.size).toBe(1);
  const made = answers.filter((r) => String(r.structuredContent!.message).includes('a release request was made'));
  expect(made).toHaveLength(1);
  const again = await publish(as.member, { environment: 'prod' });
  expect(again.structuredContent!.request.id).toBe([...ids][0]);
  expect(again.structuredContent!.message).toContain('already pending; nothing changed');
  expect(await prodRelease()).toMatchObject({ variantId: v2.id, releasedBy: owner.id });
  expect(await domain.deps.repos.releases.history(component.id, { limit: 10 })).toHaveLength(2);
});

test('a viewer cannot publish anywhere: a tool error naming the role', async () => {
  const viewer = await aMemberOf(domain.database, owner.defaultOrganizationId, 'viewer');
  const client = await h.connect(await h.tokenFor(viewer));
  for (const environment of ['staging', 'prod']) {
    const result = await publish(client, { environment });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ success: false, error: { code: 'FORBIDDEN' } });
    expect(result.structuredContent!.error.message).toContain('Your role in this organization is viewer');
  }
});

test('the member still publishes to staging', async () => {
  const result = await publish(as.member, { environment: 'staging', variantId: v2.id });
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toMatchObject({
    success: true,
    environment: 'staging',
    variantId: v2.id,
  });
});

test('an admin rolls prod back and the owner publishes the latest again', async () => {
  const rolledBack = await publish(as.admin, { environment: 'prod', variantId: v1.id });
  expect(rolledBack.structuredContent).toMatchObject({
    success: true,
    environment: 'prod',
    variantId: v1.id,
    previousVariantId: v2.id,
  });
  expect(await prodRelease()).toMatchObject({ variantId: v1.id, releasedBy: admin.id });
  const published = await publish(as.owner, { environment: 'prod' });
  expect(published.structuredContent).toMatchObject({
    success: true,
    environment: 'prod',
    variantId: v2.id,
    previousVariantId: v1.id,
  });
});

test('publish_component tells the assistant about release requests up front', async () => {
  const { tools } = await as.member.listTools();
  expect(tools.find((t) => t.name === 'publish_component')!.description).toContain(
    'pending_approval',
  );
});

test('one JSON-RPC batch of 20 publishes to prod by a member (protocol 2025-03-26) makes one release request, and releases nothing', async () => {
  const fresh = await aComponent(domain.deps.repos, { organizationId: owner.defaultOrganizationId, createdBy: owner.id, name: 'Batch tag' });
  const calls = Array.from({ length: 20 }, (_, i) => toolCall('publish_component', { componentId: fresh.id, environment: 'prod' }, i + 1));
  const answer = await rpc(h.mcpUrl, calls, { token: await h.tokenFor(member), headers: { 'mcp-protocol-version': '2025-03-26' } });
  expect(answer.status).toBe(200);
  const results = (answer.json as { result: Result }[]).map((m) => m.result.structuredContent!);
  expect(results).toHaveLength(20);
  expect(new Set(results.map((r) => (r.request as { id: string }).id)).size).toBe(1);
  expect(results.filter((r) => String(r.message).includes('a release request was made'))).toHaveLength(1);
  expect(await domain.deps.repos.releaseRequests.listPending(fresh.id)).toHaveLength(1);
  expect(await domain.deps.repos.releases.listCurrent(fresh.id)).toEqual([]);
});
