/* eslint-disable @typescript-eslint/no-explicit-any -- tool results are JSON, checked by assertions */
import { aComponent, aMemberOf, aVariant } from '@cp/db/testing';
import { publishVariant, type Component, type User, type Variant } from '@cp/domain';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { defaultTreeAdapter as tree, parse, type DefaultTreeAdapterMap } from 'parse5';
import { PREVIEW_VIEW_URI } from '../src/views/preview-view.js';
import { createTestDomain, type TestDomain } from './support/domain.js';
import { aUser, rpc, startHarness, toolCall, type Harness } from './support/harness.js';

/*
 * Released components as apps (docs/mcp-apps.md, section 2) over real HTTP: the SDK client,
 * createApp, the database and the object store. The rules (settings, input schemas, tool names)
 * are the domain's; here is what the MCP server adds: the tools in each member's tools/list, the
 * calls, the view resource with its bridge, and who may do what.
 */
let domain: TestDomain;
let h: Harness;
let owner: User;
let admin: User;
let member: User;
let stranger: User;
let component: Component;
let v1: Variant;
let v2: Variant;
let asAdmin: Client;
let asMember: Client;
let asStranger: Client;
/** The member's read-only token: app tools only show, so mcp:read is enough. */
let memberToken: string;

const VARIANT_HTML = (version: string) =>
  '<!doctype html><html><head><meta charset="utf-8"><title>Price tag</title><script>window.headScript = 1;</script></head>' +
  `<body><p id="amount">${version} body</p><script>{ const root = window.cpRoot; window.cpReceive = (d) => { root.querySelector('#amount').textContent = d.price; }; }</script></body></html>`;

const PRICE_SCHEMA = {
  type: 'object',
  properties: { price: { type: 'string' } },
  required: ['price'],
  additionalProperties: false,
};

type Result = {
  structuredContent?: Record<string, any>;
  isError?: boolean;
  content?: { type: string; text: string }[];
};
const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as Result;
const ok = (result: Result) => {
  expect(result.isError).toBeFalsy();
  return result.structuredContent!;
};
const refusal = (result: Result) => {
  expect(result.isError).toBe(true);
  return result.structuredContent!.error as { code: string; message: string };
};
const appTools = async (client: Client) =>
  (await client.listTools()).tools.filter((tool) => tool.name.startsWith('show_'));
const viewUri = (version: number) => `ui://apps/${component.id}/v${version}.html`;

/** The variant's HTML where a confirmed upload leaves it. */
async function storeHtml(variant: Variant, html: string): Promise<void> {
  const url = await domain.deps.objects.presignPut(variant.objectKey, {
    expiresInSeconds: 60,
    contentType: 'text/html',
  });
  const res = await fetch(url, {
    method: 'PUT',
    body: html,
    headers: { 'content-type': 'text/html' },
  });
  expect(res.ok).toBe(true);
}
const publish = (variant: Variant, environment = 'prod') =>
  publishVariant(
    { actor: { userId: owner.id }, componentId: component.id, environment, variantId: variant.id },
    domain.deps,
  );

const saveApp = (client: Client, args: Record<string, unknown> = {}) =>
  call(client, 'set_component_app', {
    componentId: component.id,
    environment: 'prod',
    title: 'Price tag',
    description: 'Shows a price with a buy button.',
    inputSchema: PRICE_SCHEMA,
    actionTools: { details: 'get_component' },
    ...args,
  });

beforeAll(async () => {
  domain = await createTestDomain();
  h = await startHarness({ domain: domain.deps });
  owner = await aUser(h.domain, `owner-${Date.now()}@example.com`);
  const organizationId = owner.defaultOrganizationId;
  admin = await aMemberOf(domain.database, organizationId, 'admin', {
    email: `admin-${Date.now()}@example.com`,
  });
  member = await aMemberOf(domain.database, organizationId, 'member');
  stranger = await aUser(h.domain);
  component = await aComponent(domain.deps.repos, {
    organizationId,
    createdBy: owner.id,
    name: 'Price tag',
  });
  v1 = (await domain.deps.repos.variants.findLatest(component.id))!;
  v2 = await aVariant(domain.deps.repos, { componentId: component.id, createdBy: owner.id });
  await storeHtml(v1, VARIANT_HTML('v1'));
  await storeHtml(v2, VARIANT_HTML('v2'));
  await publish(v1);
  memberToken = await h.tokenFor(member, { scope: 'mcp:read' });
  [asAdmin, asMember, asStranger] = await Promise.all([
    h.connect(await h.tokenFor(admin)),
    h.connect(memberToken),
    h.connect(await h.tokenFor(stranger)),
  ]);
});
afterAll(async () => {
  await h.close();
  await domain.close();
});

test('set_component_app: a member is refused, an environment without a release is refused, an admin offers the app', async () => {
  const asWritingMember = await h.connect(await h.tokenFor(member));
  expect(refusal(await saveApp(asWritingMember)).code).toBe('FORBIDDEN');
  const unreleased = refusal(await saveApp(asAdmin, { environment: 'staging' }));
  expect(unreleased).toMatchObject({ code: 'CONFLICT' });
  expect(unreleased.message).toMatch(/Publish a variant to staging first/);
  expect(refusal(await saveApp(asAdmin, { inputSchema: { type: 'string' } })).message).toMatch(
    /^inputSchema: must have "type": "object"/,
  );

  const saved = ok(await saveApp(asAdmin));
  expect(saved.app).toMatchObject({
    environment: 'prod',
    title: 'Price tag',
    inputSchema: PRICE_SCHEMA,
    actionTools: { details: 'get_component' },
  });
  expect(saved.app.tool).toEqual({
    name: 'show_price_tag_v1',
    resourceUri: viewUri(1),
    version: 1,
  });
  expect(
    ok(await call(asMember, 'get_component_app', { componentId: component.id })).app.tool.name,
  ).toBe('show_price_tag_v1');
});

test("a member's tools/list shows the app tool, with its view linked; a stranger's does not", async () => {
  const [tool] = await appTools(asMember);
  expect(tool).toEqual({
    name: 'show_price_tag_v1',
    title: 'Price tag',
    description:
      'Shows a price with a buy button. Calling it shows the component in the conversation, with the arguments as its data.',
    inputSchema: PRICE_SCHEMA,
    annotations: {
      title: 'Price tag',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    _meta: { ui: { resourceUri: viewUri(1) }, 'ui/resourceUri': viewUri(1) },
  });
  expect(await appTools(asStranger)).toEqual([]);
  const { resources } = await asMember.listResources();
  expect(resources).toContainEqual(
    expect.objectContaining({
      uri: viewUri(1),
      name: 'show_price_tag_v1',
      mimeType: 'text/html;profile=mcp-app',
    }),
  );
});

test('calling it with a read-only token answers in words and with the data; arguments failing the schema are a tool error naming the rule', async () => {
  const shown = await call(asMember, 'show_price_tag_v1', { price: '12.90 EUR' });
  expect(shown.structuredContent).toEqual({
    success: true,
    app: {
      component: 'Price tag',
      componentId: component.id,
      version: 1,
      environment: 'prod',
      title: 'Price tag',
    },
    data: { price: '12.90 EUR' },
  });
  expect(shown.content![0]!.text).toBe(
    `"Price tag": the component Price tag (${component.id}) at version 1, as released to prod, with the data {"price":"12.90 EUR"}. ` +
      'Clients that render MCP Apps show it in the conversation.',
  );
  const wrong = refusal(await call(asMember, 'show_price_tag_v1', { price: 12 }));
  expect(wrong.code).toBe('INVALID_INPUT');
  expect(wrong.message).toBe(
    'Invalid arguments for show_price_tag_v1: price must be string (input schema #/properties/price/type). Call it again with arguments that match its inputSchema (tools/list).',
  );
  expect(refusal(await call(asMember, 'show_price_tag_v1', {})).message).toMatch(
    /the arguments must have required property 'price'/,
  );
  // The stranger's token knows no such tool: the same answer as for a name that never existed.
  expect(refusal(await call(asStranger, 'show_price_tag_v1', { price: '1' }))).toEqual({
    code: 'NOT_FOUND',
    message:
      'show_price_tag_v1 is not one of your app tools: the app may have been removed, or the name is wrong. Call tools/list again for the apps of your organizations.',
  });
});

/** The elements of `node` in document order. */
const elements = (node: DefaultTreeAdapterMap['parentNode']): DefaultTreeAdapterMap['element'][] =>
  node.childNodes.flatMap((child) =>
    tree.isElementNode(child) ? [child, ...elements(child)] : [],
  );
const textOf = (element: DefaultTreeAdapterMap['element']) =>
  element.childNodes.map((child) => (tree.isTextNode(child) ? child.value : '')).join('');

test("resources/read of the view: the version's HTML with the bridge as the first script of <head>; the title embedded safely", async () => {
  await saveApp(asAdmin, { title: 'Price </script><script>alert(1)</script>' });
  const { contents } = await asMember.readResource({ uri: viewUri(1) });
  expect(contents).toHaveLength(1);
  const [view] = contents as [{ uri: string; mimeType: string; text: string; _meta: unknown }];
  expect(view).toMatchObject({
    uri: viewUri(1),
    mimeType: 'text/html;profile=mcp-app',
    _meta: {
      ui: {
        prefersBorder: true,
        csp: { connectDomains: [], resourceDomains: [], frameDomains: [] },
      },
    },
  });
  const scripts = elements(parse(view.text)).filter((element) => element.tagName === 'script');
  expect(
    scripts.map((script) => (script.parentNode as DefaultTreeAdapterMap['element']).tagName),
  ).toEqual(['head', 'head', 'body']);
  const bridge = textOf(scripts[0]!);
  expect(bridge).toContain("method: 'ui/initialize'");
  expect(bridge).toContain('"actionTools":{"details":"get_component"}');
  expect(bridge).toContain('"title":"Price \\u003c/script>\\u003cscript>alert(1)\\u003c/script>"');
  expect(textOf(scripts[1]!)).toBe('window.headScript = 1;');
  expect(view.text).toContain('<p id="amount">v1 body</p>');
  expect(view.text).toMatch(/^<!DOCTYPE html><html><head><meta charset="utf-8"><script>/);
  await saveApp(asAdmin);
});

test("another organization's token, an unknown version and a malformed URI all answer as an unknown URI (ids never leak)", async () => {
  const unknown = async (token: string, uri: string) => {
    const { json } = await rpc(
      h.mcpUrl,
      { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri } },
      { token },
    );
    expect(json.error.code).toBe(-32602);
    return json.error.message as string;
  };
  const strangerToken = await h.tokenFor(stranger);
  const other = `ui://apps/${crypto.randomUUID()}/v1.html`;
  const answer = (uri: string, known: string) =>
    `Unknown resource "${uri}". Resources of this server: ${known}. Call resources/list, or take the URI from a tool's _meta.ui.resourceUri in tools/list.`;
  expect(await unknown(strangerToken, viewUri(1))).toBe(answer(viewUri(1), PREVIEW_VIEW_URI));
  expect(await unknown(strangerToken, other)).toBe(answer(other, PREVIEW_VIEW_URI));
  expect(await unknown(memberToken, viewUri(9))).toBe(
    answer(viewUri(9), `${PREVIEW_VIEW_URI}, ${viewUri(1)}`),
  );
  expect(await unknown(memberToken, 'ui://apps/x/v0.html')).toMatch(/^Unknown resource/);
});

test('a new release renames the tool; the old name answers with the new one; the old view still reads', async () => {
  await publish(v2);
  expect((await appTools(asMember)).map((tool) => [tool.name, tool._meta])).toEqual([
    ['show_price_tag_v2', { ui: { resourceUri: viewUri(2) }, 'ui/resourceUri': viewUri(2) }],
  ]);
  expect(refusal(await call(asMember, 'show_price_tag_v1', { price: '1' }))).toEqual({
    code: 'NOT_FOUND',
    message:
      'show_price_tag_v1 is not the current tool of "Price tag": a new version was released since tools/list was read. Call show_price_tag_v2 instead (tools/list shows it).',
  });
  expect(ok(await call(asMember, 'show_price_tag_v2', { price: '1' })).app.version).toBe(2);
  const [old] = (await asMember.readResource({ uri: viewUri(1) })).contents as unknown as [
    { text: string },
  ];
  expect(old.text).toContain('v1 body');
});

test('an environment without a release any more: the tool leaves the list, and a call says to publish', async () => {
  // Nothing in the platform unpublishes yet; the database is where a release can disappear (an operator's repair).
  await domain.database.prisma.release.delete({
    where: {
      componentId_environmentId: {
        componentId: component.id,
        environmentId: (await domain.deps.repos.environments.findByName(
          owner.defaultOrganizationId,
          'prod',
        ))!.id,
      },
    },
  });
  expect(await appTools(asMember)).toEqual([]);
  expect(refusal(await call(asMember, 'show_price_tag_v2', { price: '1' }))).toEqual({
    code: 'CONFLICT',
    message:
      'Price tag has no release in prod any more, so "Price tag" has nothing to show. Publish a version to prod (publish_component), then call tools/list again.',
  });
  await publish(v2);
});

test('app tool calls pay the request budget per message, like any tool: 40 in parallel, batches of 40 and 20', async () => {
  const limited = await startHarness({ domain: domain.deps, rateLimit: { userPoints: 30 } });
  try {
    const token = await limited.tokenFor(member, { scope: 'mcp:read' });
    const single = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        rpc(limited.mcpUrl, toolCall('show_price_tag_v2', { price: `${i}` }, i + 1), { token }),
      ),
    );
    expect(single.filter((response) => response.status === 200)).toHaveLength(30);
    expect(single.filter((response) => response.status === 429)).toHaveLength(10);

    const batch = (count: number) =>
      Array.from({ length: count }, (_, i) =>
        toolCall('show_price_tag_v2', { price: `${i}` }, i + 1),
      );
    const OLD = { 'mcp-protocol-version': '2025-03-26' };
    const other = await limited.tokenFor(admin, { scope: 'mcp:read' });
    const tooLong = await rpc(limited.mcpUrl, batch(40), { token: other, headers: OLD });
    expect([tooLong.status, tooLong.json.error.message]).toEqual([
      400,
      'Invalid Request: a batch may hold at most 20 messages.',
    ]);
    // 1 point for the refused batch, 20 for this one: 21 of 30.
    const admitted = await rpc(limited.mcpUrl, batch(20), { token: other, headers: OLD });
    expect(admitted.status).toBe(200);
    expect(
      (admitted.json as { result: { structuredContent: { success: boolean } } }[]).every(
        (response) => response.result.structuredContent.success,
      ),
    ).toBe(true);
    expect((await rpc(limited.mcpUrl, batch(20), { token: other, headers: OLD })).status).toBe(429);
  } finally {
    await limited.close();
  }
});

test('scopes: an app tool needs mcp:read (it only shows); a write-only token is refused like for any reading tool', async () => {
  const writeOnly = await rpc(h.mcpUrl, toolCall('show_price_tag_v2', { price: '1' }), {
    token: await h.tokenFor(member, { scope: 'mcp:write' }),
  });
  expect(writeOnly.status).toBe(403);
  const readOnly = await rpc(h.mcpUrl, toolCall('show_price_tag_v2', { price: '1' }), {
    token: memberToken,
  });
  expect(readOnly.json.result.structuredContent.success).toBe(true);
  // Its view is the organization's HTML: reading it is reading too.
  const read = { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: viewUri(2) } };
  expect((await rpc(h.mcpUrl, read, { token: await h.tokenFor(member, { scope: 'mcp:write' }) })).status).toBe(403);
  expect((await rpc(h.mcpUrl, read, { token: memberToken })).json.result.contents[0].uri).toBe(viewUri(2));
});

test('remove_component_app: a member is refused; after an admin removes it, the tool and its view are gone', async () => {
  const asWritingMember = await h.connect(await h.tokenFor(member));
  expect(
    refusal(await call(asWritingMember, 'remove_component_app', { componentId: component.id }))
      .code,
  ).toBe('FORBIDDEN');
  expect(
    ok(await call(asAdmin, 'remove_component_app', { componentId: component.id })).message,
  ).toMatch(/no longer an app/);
  expect(await appTools(asMember)).toEqual([]);
  expect(refusal(await call(asMember, 'show_price_tag_v2', { price: '1' })).code).toBe('NOT_FOUND');
  await expect(asMember.readResource({ uri: viewUri(2) })).rejects.toThrow(/Unknown resource/);
  expect(
    ok(await call(asMember, 'get_component_app', { componentId: component.id })).app,
  ).toBeNull();
  expect(
    refusal(await call(asAdmin, 'remove_component_app', { componentId: component.id })).code,
  ).toBe('NOT_FOUND');
});
