/* eslint-disable @typescript-eslint/no-explicit-any -- results are JSON, checked by assertions */
import { aComponent, aVariant } from '@cp/db/testing';
import type { Component, User, Variant } from '@cp/domain';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createTestDomain, type TestDomain } from './support/domain.js';
import { aUser, rpc, startHarness, toolCall, type Harness } from './support/harness.js';

/*
 * MCP Apps, section 1 of docs/mcp-apps.md: the tools that link the preview view, the view as a
 * resource (resources/list, resources/read), and the tools only the view calls.
 */
const DELIVERY = 'https://delivery.example/cp/';
const DELIVERY_ORIGIN = 'https://delivery.example';
const VIEW_URI = 'ui://components/preview-v1.html';
const VIEW_META = {
  ui: {
    csp: { connectDomains: [DELIVERY_ORIGIN], resourceDomains: [DELIVERY_ORIGIN], frameDomains: [DELIVERY_ORIGIN] },
    prefersBorder: true,
  },
};

let domain: TestDomain;
let h: Harness;
let owner: User;
let client: Client;
let token: string;

beforeAll(async () => {
  domain = await createTestDomain();
  h = await startHarness({ domain: domain.deps, config: { deliveryUrl: DELIVERY } });
  owner = await aUser(h.domain);
  token = await h.tokenFor(owner);
  client = await h.connect(token);
});
afterAll(async () => {
  await h.close();
  await domain.close();
});

describe('the preview view resource', () => {
  test('resources/list names it with its mimeType and _meta.ui: the delivery origin only, a border, no domain', async () => {
    const { resources } = await client.listResources();
    expect(resources).toEqual([
      {
        uri: VIEW_URI,
        name: 'component-preview',
        title: 'Component preview',
        description: expect.any(String),
        mimeType: 'text/html;profile=mcp-app',
        _meta: VIEW_META,
      },
    ]);
  });

  test('resources/read answers the HTML with the same _meta.ui, the delivery API filled in, at most 20 KB', async () => {
    const { contents } = await client.readResource({ uri: VIEW_URI });
    expect(contents).toHaveLength(1);
    const [content] = contents as [{ uri: string; mimeType: string; text: string; _meta: unknown }];
    expect(content).toMatchObject({ uri: VIEW_URI, mimeType: 'text/html;profile=mcp-app', _meta: VIEW_META });
    expect(content.text).toMatch(/^<!doctype html>/);
    expect(content.text).toContain('<meta name="cp-delivery-url" content="https://delivery.example/cp">');
    expect(content.text).not.toContain('{{');
    expect(Buffer.byteLength(content.text)).toBeLessThanOrEqual(20 * 1024);
  });

  test('an unknown URI is invalid params naming the resources that exist', async () => {
    const { status, json } = await rpc(h.mcpUrl, { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'ui://components/nope.html' } }, { token });
    expect(status).toBe(200);
    expect(json.error).toEqual({
      code: -32602,
      message: `Unknown resource "ui://components/nope.html". Resources of this server: ${VIEW_URI}. Call resources/list, or take the URI from a tool's _meta.ui.resourceUri in tools/list.`,
    });
  });

  test('resources need a token, as tools/list does', async () => {
    for (const method of ['resources/list', 'resources/read']) {
      const { status } = await rpc(h.mcpUrl, { jsonrpc: '2.0', id: 1, method, params: { uri: VIEW_URI } });
      expect(status).toBe(401);
    }
  });
});

describe('tools/list', () => {
  test('the four tools link the view under both keys; the view-only tool is marked app; no other tool has _meta', async () => {
    const { tools } = await client.listTools();
    const meta = Object.fromEntries(tools.filter((tool) => tool._meta !== undefined).map((tool) => [tool.name, tool._meta]));
    const linked = { ui: { resourceUri: VIEW_URI }, 'ui/resourceUri': VIEW_URI };
    expect(meta).toEqual({
      get_component: linked,
      list_variants: linked,
      confirm_upload: linked,
      publish_component: linked,
      get_release_choices: { ui: { visibility: ['app'] } },
      get_variant_html: { ui: { visibility: ['app'] } },
    });
  });
});

describe('get_release_choices (the view only)', () => {
  let component: Component;
  let v1: Variant;
  let v2: Variant;
  const choices = async (environment: string) =>
    ((await client.callTool({ name: 'get_release_choices', arguments: { componentId: component.id, environment } })) as { structuredContent: any; isError?: boolean });

  beforeAll(async () => {
    component = await aComponent(domain.deps.repos, { organizationId: owner.defaultOrganizationId, createdBy: owner.id, name: 'Price tag' });
    v1 = (await domain.deps.repos.variants.findLatest(component.id))!;
    v2 = await aVariant(domain.deps.repos, { componentId: component.id, createdBy: owner.id });
  });

  test('what the environment serves, what "Roll back" releases, the latest version', async () => {
    expect((await choices('staging')).structuredContent).toEqual({
      success: true,
      componentId: component.id,
      environment: 'staging',
      current: null,
      rollBack: null,
      latest: { variantId: v2.id, sequence: 2 },
    });
    await client.callTool({ name: 'publish_component', arguments: { componentId: component.id, environment: 'staging' } });
    const after = (await choices('STAGING')).structuredContent;
    expect(after).toMatchObject({
      environment: 'staging',
      current: { variantId: v2.id, sequence: 2, releasedAt: expect.stringMatching(/Z$/) },
      rollBack: { variantId: v1.id, sequence: 1 },
    });
  });

  test('an unknown environment is NOT_FOUND naming the environments that exist', async () => {
    const result = await choices('qa');
    expect(result.isError).toBe(true);
    expect(result.structuredContent.error).toEqual({
      code: 'NOT_FOUND',
      message: 'Environment "qa" does not exist in this organization. Known environments: prod, staging.',
    });
  });

  test('it needs mcp:read, as every read tool', async () => {
    const writeOnly = await h.tokenFor(owner, { scope: 'mcp:write' });
    const { status } = await rpc(h.mcpUrl, toolCall('get_release_choices', { componentId: component.id, environment: 'staging' }), { token: writeOnly });
    expect(status).toBe(403);
  });

  test("another organization's component is NOT_FOUND", async () => {
    const stranger = await h.connect(await h.tokenFor(await aUser(h.domain)));
    const result = (await stranger.callTool({ name: 'get_release_choices', arguments: { componentId: component.id, environment: 'staging' } })) as { structuredContent: any };
    expect(result.structuredContent.error.code).toBe('NOT_FOUND');
  });
});

describe('get_variant_html (the view only, without the delivery API)', () => {
  let component: Component;
  let variant: Variant;
  const HTML = '<!doctype html><p>Caf\u00e9 banner</p>';
  const htmlOf = async (as: Client, variantId: string) =>
    (await as.callTool({ name: 'get_variant_html', arguments: { componentId: component.id, variantId } })) as { structuredContent: any; isError?: boolean };

  beforeAll(async () => {
    component = await aComponent(domain.deps.repos, { organizationId: owner.defaultOrganizationId, createdBy: owner.id, name: 'Banner' });
    variant = (await domain.deps.repos.variants.findLatest(component.id))!;
    const url = await domain.deps.objects.presignPut(variant.objectKey, { expiresInSeconds: 60, contentType: 'text/html' });
    expect((await fetch(url, { method: 'PUT', body: HTML, headers: { 'content-type': 'text/html' } })).ok).toBe(true);
  });

  test("a member reads the version's stored HTML", async () => {
    expect((await htmlOf(client, variant.id)).structuredContent).toEqual({
      success: true,
      componentId: component.id,
      variantId: variant.id,
      sequence: 1,
      html: HTML,
    });
  });

  test("an unknown version and another organization's component are NOT_FOUND; it needs mcp:read", async () => {
    const unknown = await htmlOf(client, '3f2b8c1e-5d4a-4b7e-9c1f-2a6d8e0b7c45');
    expect([unknown.isError, unknown.structuredContent.error.code]).toEqual([true, 'NOT_FOUND']);
    const stranger = await h.connect(await h.tokenFor(await aUser(h.domain)));
    expect((await htmlOf(stranger, variant.id)).structuredContent.error.code).toBe('NOT_FOUND');
    const writeOnly = await h.tokenFor(owner, { scope: 'mcp:write' });
    const { status } = await rpc(h.mcpUrl, toolCall('get_variant_html', { componentId: component.id, variantId: variant.id }), { token: writeOnly });
    expect(status).toBe(403);
  });
});
