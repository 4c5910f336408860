/* eslint-disable @typescript-eslint/no-explicit-any, @typescript-eslint/no-unsafe-call -- tool results are JSON, checked by assertions */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { User } from '@cp/domain';
import { createTestDomain, type TestDomain } from './support/domain.js';
import { aUser, startHarness, type Harness } from './support/harness.js';
import { aProject, html, runInShell } from './support/upload.js';

let domain: TestDomain;
let h: Harness;
let alice: User;
let bob: User;
let client: Client;
let bobClient: Client;

beforeAll(async () => {
  domain = await createTestDomain({ maxUploadBytes: 4096 });
  h = await startHarness({ domain: domain.deps, config: { dashboardUrl: 'https://dashboard.example' } });
  alice = await aUser(h.domain);
  bob = await aUser(h.domain);
  client = await h.connect(await h.tokenFor(alice));
  bobClient = await h.connect(await h.tokenFor(bob));
});
afterAll(async () => {
  await h.close();
  await domain.close();
});

type Result = { structuredContent?: Record<string, any>; isError?: boolean; content: unknown };

async function call(name: string, args: Record<string, unknown> = {}, as: Client = client): Promise<Record<string, any>> {
  const result = (await as.callTool({ name, arguments: args })) as Result;
  // Every result, success or failure, carries the same JSON as text.
  expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual(result.structuredContent);
  if (result.isError) throw Object.assign(new Error(`${name} failed`), { toolError: result.structuredContent });
  expect(result.structuredContent!.success).toBe(true);
  return result.structuredContent!;
}

async function callError(name: string, args: Record<string, unknown> = {}, as: Client = client): Promise<{ code: string; message: string }> {
  const result = (await as.callTool({ name, arguments: args })) as Result;
  expect(result.isError).toBe(true);
  expect(result.structuredContent!.success).toBe(false);
  expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual(result.structuredContent);
  return result.structuredContent!.error as { code: string; message: string };
}

/** upload_component, the handed-out command through a real shell, confirm_upload. */
async function uploadThroughTools(args: Record<string, unknown>, content: string, as: Client = client) {
  const started = await call('upload_component', args, as);
  const project = await aProject(content);
  await runInShell('sh', started.curlCommand as string, project.dir);
  return call('confirm_upload', { uploadId: started.uploadId }, as);
}

describe('the upload round trip', () => {
  let componentId: string;
  let firstVariantId: string;
  const firstHtml = html('Checkout banner v1');
  const secondHtml = html('Checkout banner v2');

  test('a new component: upload_component, curlCommand in sh, confirm_upload', async () => {
    const started = await call('upload_component', { name: 'Checkout Banner' });
    expect(started).toEqual({
      success: true,
      message: 'Upload session created for new component "Checkout Banner".',
      uploadId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      componentId: null,
      curlCommand: expect.any(String),
      uploadUrl: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/components\/.+X-Amz-Signature=[0-9a-f]+$/),
      uploadHeaders: { 'content-type': 'text/html' },
      expiresIn: '3600 seconds',
      nextStep: `Run curlCommand from the project root (it uploads ./dist/index.html), then call confirm_upload with uploadId "${started.uploadId}" within 3600 seconds.`,
    });
    const command = started.curlCommand as string;
    // The command and the plain URL name the same presigned PUT.
    expect(command).toContain(`'${started.uploadUrl as string}'`);
    expect(command).not.toContain('\n');
    expect(command).toMatch(/^curl .*-X PUT -H 'Content-Type: text\/html' --data-binary '@\.\/dist\/index\.html' 'http:\/\/127\.0\.0\.1:\d+\/components\/[^']+X-Amz-Signature=[0-9a-f]+'$/);

    // Confirming before the PUT: a tool error that says what to do, and the session stays usable.
    const early = await callError('confirm_upload', { uploadId: started.uploadId });
    expect(early.code).toBe('UPLOAD_NOT_RECEIVED');
    expect(early.message).toContain('Run the curlCommand');

    const project = await aProject(firstHtml);
    await runInShell('sh', command, project.dir);
    const confirmed = await call('confirm_upload', { uploadId: started.uploadId });
    componentId = confirmed.componentId as string;
    firstVariantId = confirmed.variantId as string;
    expect(confirmed).toEqual({
      success: true,
      message: `Component "Checkout Banner" was created. Save "componentId": "${componentId}" and "organization": "${alice.defaultOrganizationId}" (orgId) in service.config.json so later uploads update this component.`,
      dashboardUrl: `https://dashboard.example/component/${componentId}`,
      componentName: 'Checkout Banner',
      componentId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      variantId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      sequence: 1,
      isNewComponent: true,
      orgId: alice.defaultOrganizationId,
    });
    // Confirming twice answers the same.
    expect(await call('confirm_upload', { uploadId: started.uploadId })).toEqual(confirmed);
  });

  test('get_component with content returns the uploaded HTML; without content only metadata', async () => {
    const full = await call('get_component', { componentId });
    expect(full.component).toEqual({ id: componentId, name: 'Checkout Banner', description: '', variantsCount: 1, tags: [] });
    expect(full.htmlContent).toBe(firstHtml);
    expect(full.latestVariant).toMatchObject({ variantId: firstVariantId, sequence: 1, size: Buffer.byteLength(firstHtml) });
    expect(full.latestVariant.integrity).toMatch(/^sha384-/);
    expect(full.resolvedEnvironment).toBeNull();
    const meta = await call('get_component', { componentId, includeContent: false });
    expect(meta).toEqual({
      success: true,
      component: full.component,
      resolvedEnvironment: null,
      latestVariant: null,
      htmlContent: null,
      dashboardUrl: `https://dashboard.example/component/${componentId}`,
    });
  });

  test('an existing component: the command also runs in bash, and a new version is added', async () => {
    const started = await call('upload_component', { componentId, organization: alice.defaultOrganizationId });
    expect(started.componentId).toBe(componentId);
    expect(started.message).toBe('Upload session created for component "Checkout Banner".');
    const project = await aProject(secondHtml);
    await runInShell('bash', started.curlCommand as string, project.dir);
    const confirmed = await call('confirm_upload', { uploadId: started.uploadId });
    expect(confirmed).toMatchObject({
      isNewComponent: false,
      componentId,
      message: 'A new version (version 2) was added to component "Checkout Banner".',
    });
    expect((await call('get_component', { componentId })).htmlContent).toBe(secondHtml);
  });

  test('tags: add, remove, set, clear, without a new version', async () => {
    expect(await call('edit_component_tags', { componentId, add: [' checkout ', 'banner', 'banner'] })).toEqual({
      success: true,
      componentId,
      name: 'Checkout Banner',
      tags: ['checkout', 'banner'],
    });
    expect((await call('edit_component_tags', { componentId, remove: ['banner', 'absent'] })).tags).toEqual(['checkout']);
    expect((await call('edit_component_tags', { componentId, add: ['new'], remove: ['checkout'] })).tags).toEqual(['new']);
    expect((await call('edit_component_tags', { componentId, set: ['a', 'B'] })).tags).toEqual(['a', 'B']);
    const component = (await call('get_component', { componentId, includeContent: false })).component;
    expect(component).toMatchObject({ tags: ['a', 'B'], variantsCount: 2 });
    expect((await call('edit_component_tags', { componentId, set: [] })).tags).toEqual([]);
    const mixed = await callError('edit_component_tags', { componentId, set: ['a'], add: ['b'] });
    expect(mixed).toEqual({ code: 'INVALID_INPUT', message: 'set: "set" replaces the whole list and cannot be combined with "add" or "remove". Send one mode per call.' });
  });

  test('list_variants: newest first, with size, sha256 and environments; publish_component and rollback', async () => {
    const before = await call('list_variants', { componentId });
    expect(before.count).toBe(2);
    expect(before.variants.map((v: { sequence: number }) => v.sequence)).toEqual([2, 1]);
    expect(before.variants[1]).toMatchObject({ variantId: firstVariantId, size: Buffer.byteLength(firstHtml), environments: [] });
    expect(before.variants[1].sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(before.nextBeforeSequence).toBeNull();
    // What the preview view shows (docs/mcp-apps.md): the name and the dashboard page come with the list and the release.
    const dashboardUrl = `https://dashboard.example/component/${componentId}`;
    expect(before).toMatchObject({ componentName: 'Checkout Banner', dashboardUrl });

    const latest = await call('publish_component', { componentId, environment: 'prod' });
    expect(latest).toMatchObject({
      componentId,
      componentName: 'Checkout Banner',
      environment: 'prod',
      sequence: 2,
      previousVariantId: null,
      message: 'Version 2 is now released to "prod".',
      dashboardUrl,
    });
    const rollback = await call('publish_component', { componentId, environment: 'prod', variantId: firstVariantId });
    expect(rollback).toMatchObject({ sequence: 1, variantId: firstVariantId, previousVariantId: latest.variantId });
    await call('publish_component', { componentId, environment: 'staging' });

    const after = await call('list_variants', { componentId });
    expect(after.variants.map((v: { environments: string[] }) => v.environments)).toEqual([['staging'], ['prod']]);
    const page = await call('list_variants', { componentId, limit: 1 });
    expect(page.variants).toHaveLength(1);
    expect(page.nextBeforeSequence).toBe(2);
    const older = await call('list_variants', { componentId, limit: 1, beforeSequence: page.nextBeforeSequence });
    expect(older.variants[0].variantId).toBe(firstVariantId);

    const prod = await call('get_component', { componentId, environment: 'prod' });
    expect(prod.htmlContent).toBe(firstHtml);
    expect(prod.latestVariant.variantId).toBe(firstVariantId);
    expect(prod.resolvedEnvironment).toMatchObject({ name: 'prod', variantId: firstVariantId });
  });

  test('list_components pages with nextCursor and filters by name', async () => {
    for (const name of ['Alpha', 'alpine', 'Beta']) await uploadThroughTools({ name }, html(name));
    const organizationId = alice.defaultOrganizationId;
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call('list_components', { organizationId, limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.count).toBe(page.components.length);
      seen.push(...page.components.map((c: { name: string }) => c.name));
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined);
    expect(seen).toEqual(['Alpha', 'alpine', 'Beta', 'Checkout Banner']);
    const filtered = await call('list_components', { organizationId, name: 'ALP' });
    expect(filtered).toMatchObject({ count: 2, nextCursor: null });
    expect(filtered.components[0]).toEqual({
      id: expect.any(String),
      name: 'Alpha',
      description: '',
      updatedOn: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      variantsCount: 1,
      tags: [],
    });
  });
});

describe('identity', () => {
  test('whoami and list_organizations', async () => {
    expect(await call('whoami')).toEqual({ success: true, authenticated: true, userId: alice.id, email: alice.email, scope: 'mcp:read mcp:write', credential: null });
    const organizations = await call('list_organizations');
    expect(organizations.count).toBe(1);
    expect(organizations.organizations).toEqual([{ id: alice.defaultOrganizationId, name: expect.any(String), role: 'owner' }]);
  });
});

describe('uploads that fail', () => {
  test("an oversized upload is refused by the store, confirm says what curl's 400 means, and the session takes a corrected file", async () => {
    const started = await call('upload_component', { name: 'Too Big' });
    const project = await aProject(html('big', 'x'.repeat(5000)));
    // The embedded S3 server refuses bodies over MAX_UPLOAD_BYTES, as production's proxy does.
    await expect(runInShell('sh', started.curlCommand as string, project.dir)).rejects.toMatchObject({ stderr: expect.stringContaining('400') });
    const refused = await callError('confirm_upload', { uploadId: started.uploadId });
    expect(refused.code).toBe('UPLOAD_NOT_RECEIVED');
    expect(refused.message).toContain('If curl failed with error 400, the storage refused the file as larger than the 4096-byte limit');
    await project.write(html('small'));
    await runInShell('sh', started.curlCommand as string, project.dir);
    expect((await call('confirm_upload', { uploadId: started.uploadId })).isNewComponent).toBe(true);
  });

  test('a non-HTML upload is refused, and the session takes a corrected file', async () => {
    const started = await call('upload_component', { name: 'Not Html' });
    const project = await aProject('{"this": "is json"}');
    await runInShell('sh', started.curlCommand as string, project.dir);
    const refused = await callError('confirm_upload', { uploadId: started.uploadId });
    expect(refused).toEqual({
      code: 'UPLOAD_NOT_HTML',
      message: 'The uploaded file is not an HTML document: it contains no HTML element. Upload the built ./dist/index.html and call confirm_upload again.',
    });
    await project.write(html('fixed'));
    await runInShell('sh', started.curlCommand as string, project.dir);
    expect((await call('confirm_upload', { uploadId: started.uploadId })).componentName).toBe('Not Html');
  });

  test('a name already taken in the organization says how to add a version instead', async () => {
    const taken = await callError('upload_component', { name: 'checkout banner' });
    expect(taken.code).toBe('NAME_TAKEN');
    expect(taken.message).toContain('pass componentId');
  });
});

describe('isolation between organizations', () => {
  let componentId: string;
  beforeAll(async () => {
    componentId = (await uploadThroughTools({ name: 'Private' }, html('private'))).componentId as string;
  });

  test.each([
    ['get_component', () => ({ componentId })],
    ['list_variants', () => ({ componentId })],
    ['edit_component_tags', () => ({ componentId, add: ['x'] })],
    ['upload_component', () => ({ componentId })],
    ['publish_component', () => ({ componentId, environment: 'prod' })],
  ])("another organization's component is not found through %s", async (name, args) => {
    const error = await callError(name, args(), bobClient);
    expect(error).toEqual({ code: 'NOT_FOUND', message: `Component "${componentId}" was not found, or you do not have access to it.` });
  });

  test("another organization's listing and another user's upload are not found", async () => {
    const listing = await callError('list_components', { organizationId: alice.defaultOrganizationId }, bobClient);
    expect(listing.code).toBe('NOT_FOUND');
    const started = await call('upload_component', { name: 'Alice only' });
    const confirm = await callError('confirm_upload', { uploadId: started.uploadId }, bobClient);
    expect(confirm).toEqual({ code: 'NOT_FOUND', message: `Upload "${started.uploadId}" was not found, or you do not have access to it.` });
  });
});

describe('concurrency', () => {
  test('20 parallel calls over one connection all succeed', async () => {
    const organizationId = alice.defaultOrganizationId;
    const calls = Array.from({ length: 20 }, (_, i) =>
      i % 3 === 0 ? call('whoami') : i % 3 === 1 ? call('list_components', { organizationId, limit: 5 }) : call('list_organizations'),
    );
    const results = await Promise.all(calls);
    expect(results.every((result) => result.success === true)).toBe(true);
  });

  test('two parallel confirms of one upload give one variant and the same answer', async () => {
    const started = await call('upload_component', { name: 'Raced' });
    const project = await aProject(html('raced'));
    await runInShell('sh', started.curlCommand as string, project.dir);
    const [a, b] = await Promise.all([
      call('confirm_upload', { uploadId: started.uploadId }),
      call('confirm_upload', { uploadId: started.uploadId }),
    ]);
    expect(a).toEqual(b);
    const variants = await call('list_variants', { componentId: a.componentId });
    expect(variants.count).toBe(1);
  });
});
