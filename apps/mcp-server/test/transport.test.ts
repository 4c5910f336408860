import { aUser, rpc, startHarness, toolCall, type Harness } from './support/harness.js';
import { createTestDomain, type TestDomain } from './support/domain.js';

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

test('smoke: whoami', async () => {
  const user = await aUser(h.domain);
  const client = await h.connect(await h.tokenFor(user));
  const result = await client.callTool({ name: 'whoami', arguments: {} });
  expect(result.structuredContent).toEqual({ success: true, authenticated: true, userId: user.id, email: user.email, scope: 'mcp:read mcp:write' });
  const guide = await rpc(h.mcpUrl, toolCall('get_service_guide'));
  expect(guide.status).toBe(200);
});
