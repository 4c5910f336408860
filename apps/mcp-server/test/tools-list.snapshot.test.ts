import { createTestDomain, type TestDomain } from './support/domain.js';
import { aUser, startHarness, type Harness } from './support/harness.js';

/*
 * The contract of every tool (name, description, input and output schemas,
 * annotations), as an MCP client sees it. A change here is a change to the public
 * interface: update the snapshot only on purpose (`pnpm test -- -u`).
 */
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

test('tools/list', async () => {
  const client = await h.connect(await h.tokenFor(await aUser(h.domain)));
  const { tools } = await client.listTools();
  expect(tools).toMatchSnapshot();
});

test('every tool is documented and annotated deliberately', async () => {
  const client = await h.connect(await h.tokenFor(await aUser(h.domain)));
  const { tools } = await client.listTools();
  for (const tool of tools) {
    expect(tool.title).toBeTruthy();
    expect(tool.description!.length).toBeGreaterThan(80);
    expect(tool.outputSchema).toBeDefined();
    expect(tool.inputSchema.additionalProperties).toBe(false);
    const annotations = tool.annotations!;
    for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
      expect(typeof annotations[hint]).toBe('boolean');
    }
  }
});
