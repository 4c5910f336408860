import { Scope, type ToolScope } from '../src/auth/scopes.js';
import { TOOLS } from '../src/tools/registry.js';
import { createTestDomain, type TestDomain } from './support/domain.js';
import { aUser, rpc, startHarness, toolCall, type Harness } from './support/harness.js';

/* The scope gate (auth/scopes.ts), for every tool by the scope its definition declares. */

let domain: TestDomain;
let h: Harness;

beforeAll(async () => {
  domain = await createTestDomain();
  h = await startHarness({ domain: domain.deps });
});
afterAll(async () => {
  await h.close();
  await domain.close();
});

const metadata = () => `${h.baseUrl}/.well-known/oauth-protected-resource/mcp`;

describe('scopes', () => {
  // Every tool, by the scope its definition declares (tools/define.ts): the gate answers before any argument is read.
  const toolsNeeding = (scope: ToolScope): string[] => TOOLS.filter((tool) => tool.scope === scope).map((tool) => tool.name);

  test.each(toolsNeeding(Scope.Write))('a read-only token calling %s gets 403 insufficient_scope', async (name) => {
    const user = await aUser(h.domain);
    const { status, headers, json } = await rpc(h.mcpUrl, toolCall(name), { token: await h.tokenFor(user, { scope: 'mcp:read' }) });
    expect(status).toBe(403);
    expect(headers.get('www-authenticate')).toBe(`Bearer error="insufficient_scope", scope="mcp:read mcp:write", resource_metadata="${metadata()}"`);
    expect(json.error).toEqual({
      code: -32003,
      message: 'Forbidden: this needs the mcp:write scope, which this connection was not granted. Reconnect and allow mcp:write.',
    });
  });

  test.each(toolsNeeding(Scope.Read))('a write-only token calling %s gets 403 (write does not imply read)', async (name) => {
    const user = await aUser(h.domain);
    const { status } = await rpc(h.mcpUrl, toolCall(name), { token: await h.tokenFor(user, { scope: 'mcp:write' }) });
    expect(status).toBe(403);
  });

  test.each(toolsNeeding(Scope.Read))('a read-only token may call %s (the tool answers)', async (name) => {
    const user = await aUser(h.domain);
    const { status, json } = await rpc(h.mcpUrl, toolCall(name), { token: await h.tokenFor(user, { scope: 'mcp:read' }) });
    expect(status).toBe(200);
    expect(json.error).toBeUndefined();
    expect(json.result.structuredContent).toHaveProperty('success');
  });

  test.each([...toolsNeeding(Scope.Read), ...toolsNeeding(Scope.Write)])('%s without a token answers 401', async (name) => {
    const { status, headers } = await rpc(h.mcpUrl, toolCall(name));
    expect(status).toBe(401);
    expect(headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadata()}", scope="mcp:read mcp:write"`);
  });

  test.each(toolsNeeding('public'))('%s is answered without a token', async (name) => {
    const { status, json } = await rpc(h.mcpUrl, toolCall(name));
    expect(status).toBe(200);
    expect(json.result.isError).toBeUndefined();
  });

  test('every tool is in one of these lists', () => {
    expect([...toolsNeeding(Scope.Read), ...toolsNeeding(Scope.Write), ...toolsNeeding('public')]).toHaveLength(TOOLS.length);
  });

  test('a read-only token lists tools and reads', async () => {
    const user = await aUser(h.domain);
    const client = await h.connect(await h.tokenFor(user, { scope: 'mcp:read' }));
    expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
    expect((await client.callTool({ name: 'list_organizations', arguments: {} })).isError).toBeUndefined();
  });

  test('a token without any MCP scope cannot even initialize', async () => {
    const user = await aUser(h.domain);
    const { status } = await rpc(h.mcpUrl, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { token: await h.tokenFor(user, { scope: 'openid' }) });
    expect(status).toBe(403);
  });

  test('a token with any scope may still call the public tool', async () => {
    const user = await aUser(h.domain);
    const { status } = await rpc(h.mcpUrl, toolCall('get_service_guide'), { token: await h.tokenFor(user, { scope: '' }) });
    expect(status).toBe(200);
  });
});
