import type { Frame } from '@cp/browser-testing';
import { publish } from '../../../delivery-api/test/support/seed.js';
import { HANDSHAKE, splitAtInitialized, stepOf, type OpenedView } from './support/app-host.js';
import { BANNER_HTML, startViewStack, type ViewStack } from './support/view-stack.js';

/*
 * The preview view in a real web host (docs/mcp-apps.md): the extension's AppBridge on the host
 * page, the view in the sandbox proxy's inner frame under the CSP of its resource, tool calls over
 * HTTP to the real server with real tokens, the component from the real delivery API.
 */

let views: ViewStack;
let componentId: string;
let variantId: string;

beforeAll(async () => {
  views = await startViewStack();
  ({ componentId, variantId } = await views.aComponent());
}, 120_000);

afterAll(() => views?.close());

afterEach(() => {
  // Every frame of every view of the test: no console error, no CSP violation, no protocol warning.
  expect(views.host.problems.splice(0)).toEqual([]);
});

/** The component as the host SDK renders it inside the view: its shown isolating frame (the SDK also keeps a hidden warm one). */
const componentIn = (frame: Frame) => frame.locator('iframe').filter({ visible: true }).contentFrame().locator('.banner h2');


/** Where the server says the version is released (list_variants). */
async function releasedTo(version: string): Promise<string[]> {
  const client = await views.mcp.connect(await views.token());
  const listed = (await client.callTool({ name: 'list_variants', arguments: { componentId } })).structuredContent as {
    variants: { variantId: string; environments: string[] }[];
  };
  return listed.variants.find((variant) => variant.variantId === version)!.environments;
}

/** The sizes the view reported, once none came for half a second (a view that keeps reporting fails here). */
async function settledSizes(view: OpenedView): Promise<{ height?: number }[]> {
  let last = -1;
  for (let round = 0; round < 20; round += 1) {
    const sizes = await view.sizes();
    if (sizes.length === last) return sizes;
    last = sizes.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`the view still reports sizes after 10 s: ${JSON.stringify(await view.sizes())}`);
}

test('get_component: the view initializes first, shows the component at its size in the host theme, opens the dashboard, answers teardown', async () => {
  const view = await views.host.openView({ toolName: 'get_component', args: { componentId }, token: await views.token() });
  expect(view.uri).toBe('ui://components/preview-v1.html');

  await componentIn(view.frame).waitFor();
  expect(await componentIn(view.frame).textContent()).toBe('Free shipping over $50');
  expect(await view.frame.getByRole('heading').innerText()).toBe('Checkout Banner');
  expect(await view.frame.locator('dl').innerText()).toMatch(/Version\s+1[\s\S]*latest upload \(preview\)/);
  // The host's theme and style variables, from the ui/initialize answer.
  expect(
    await view.frame.evaluate(() => [document.documentElement.dataset.theme, getComputedStyle(document.documentElement).getPropertyValue('--color-background-primary')]),
  ).toEqual(['light', '#ffffff']);

  // Nothing but the handshake before `initialized`, from either side.
  const { handshake, after: afterInitialized } = await splitAtInitialized(view);
  expect(handshake).toEqual(HANDSHAKE);
  expect(afterInitialized.filter((message) => message.direction === 'host→view').map(stepOf).slice(0, 2)).toEqual([
    'host→view ui/notifications/tool-input',
    'host→view ui/notifications/tool-result',
  ]);

  // The view grew to hold the component, reported each height once, and the host's frame took the last one.
  const heights = (await settledSizes(view)).map((size) => size.height);
  expect(heights.length).toBeGreaterThan(0);
  expect(heights.every((height, index) => index === 0 || height !== heights[index - 1])).toBe(true);
  const last = heights[heights.length - 1]!;
  const frameHeight = await view.page.locator('#view-slot iframe').evaluate((frame) => frame.getBoundingClientRect().height);
  const viewHeight = await view.frame.evaluate(() => Math.ceil(document.documentElement.getBoundingClientRect().height));
  expect([frameHeight, viewHeight]).toEqual([last, last]);
  expect(last).toBeGreaterThan(heights[0]!);

  await view.frame.getByRole('button', { name: 'Open in dashboard' }).click();
  await view.page.waitForFunction(() => (window as unknown as { cpHost: { links: string[] } }).cpHost.links.length > 0);
  expect(await view.links()).toEqual([(view.result.structuredContent as { dashboardUrl: string }).dashboardUrl]);

  expect(await view.teardown()).toEqual({});
  const after = await view.messages();
  const teardown = after.find((message) => message.method === 'ui/resource-teardown')!;
  expect(after.filter((message) => message.id === teardown.id && message.direction === 'view→host').map((message) => message.message)).toEqual([
    { jsonrpc: '2.0', id: teardown.id, result: {} },
  ]);
});

test('an action from the view is a tool call with the conversation token: refused read-only, done with write', async () => {
  const release = async (scope: string | undefined) => {
    const view = await views.host.openView({ toolName: 'get_component', args: { componentId }, token: await views.token(scope) });
    await componentIn(view.frame).waitFor();
    await view.frame.getByRole('button', { name: 'Release to staging' }).click();
    const answered = async () => {
      const messages = await view.messages();
      const call = messages.find((message) => message.method === 'tools/call');
      return { call, answer: messages.find((message) => message.direction === 'host→view' && message.method === null && message.id === call?.id) };
    };
    for (let wait = 0; !(await answered()).answer && wait < 50; wait += 1) await new Promise((resolve) => setTimeout(resolve, 100));
    const { call, answer } = await answered();
    expect(call!.message).toMatchObject({ params: { name: 'publish_component', arguments: { componentId, environment: 'staging', variantId } } });
    return { view, answer: answer!.message };
  };

  const refused = await release('mcp:read');
  const refusal = 'Forbidden: this needs the mcp:write scope, which this connection was not granted. Reconnect and allow mcp:write.';
  expect(refused.answer).toMatchObject({ error: { code: -32003, message: refusal } });
  expect(await refused.view.frame.getByRole('alert').innerText()).toBe(refusal);
  expect(await releasedTo(variantId)).toEqual([]);

  const done = await release(undefined);
  expect(done.answer).toHaveProperty('result');
  await done.view.frame.getByText('released to staging').waitFor();
  expect(await releasedTo(variantId)).toEqual(['staging']);
});

test('a client that ignores the UI gets the whole answer as text', async () => {
  const client = await views.mcp.connect(await views.token());
  const result = (await client.callTool({ name: 'get_component', arguments: { componentId } })) as {
    content: { type: string; text: string }[];
    structuredContent: unknown;
  };
  expect(result.content).toHaveLength(1);
  expect(result.content[0]!.type).toBe('text');
  const answer = JSON.parse(result.content[0]!.text) as { component: { name: string }; htmlContent: string };
  expect(answer).toEqual(result.structuredContent);
  expect(answer.component.name).toBe('Checkout Banner');
  expect(answer.htmlContent).toBe(BANNER_HTML);
});

test("publish_component's view shows the release, and Roll back goes through the view-only tool to the version before", async () => {
  await publish(views.stack.domain, { userId: views.user.id }, componentId, 'prod', variantId);
  const { variantId: second } = await views.aVersion(componentId, BANNER_HTML.replace('over $50', 'over $40'));
  const view = await views.host.openView({
    toolName: 'publish_component',
    args: { componentId, environment: 'prod', variantId: second },
    token: await views.token(),
  });
  await componentIn(view.frame).filter({ hasText: 'over $40' }).waitFor();
  expect(await view.frame.locator('dl').innerText()).toMatch(/Version\s+2[\s\S]*prod[\s\S]*released to prod/);

  await view.frame.getByRole('button', { name: 'Roll back' }).click();
  await componentIn(view.frame).filter({ hasText: 'over $50' }).waitFor();
  expect(await view.frame.locator('dl').innerText()).toMatch(/Version\s+1[\s\S]*prod[\s\S]*released to prod/);
  const calls = (await view.messages()).filter((message) => message.method === 'tools/call').map((message) => message.message);
  expect(calls).toEqual([
    expect.objectContaining({ params: { name: 'get_release_choices', arguments: { componentId, environment: 'prod' } } }),
    expect.objectContaining({ params: { name: 'publish_component', arguments: { componentId, environment: 'prod', variantId } } }),
  ]);
  expect([await releasedTo(variantId), await releasedTo(second)]).toEqual([['prod', 'staging'], []]);
});

test('without the delivery API: the view shows the version through the view-only tool, in a sandboxed frame, and says so', async () => {
  // As a client whose network cannot reach the delivery API: the view's import of the SDK fails.
  const page = views.host.page;
  const sdk = `${views.delivery.url}/host/v1.js`;
  const latest = await views.aVersion(componentId, BANNER_HTML.replace('over $50', 'over $30'));
  await page.route('**/host/v1.js', (route) => route.abort());
  try {
    const view = await views.host.openView({ toolName: 'get_component', args: { componentId }, token: await views.token() });
    const nested = view.frame.locator('#stage iframe');
    await nested.contentFrame().locator('.banner h2').filter({ hasText: 'Free shipping over $30' }).waitFor();
    expect(await nested.getAttribute('sandbox')).toBe('allow-scripts');
    expect(await view.frame.getByRole('status').innerText()).toBe(
      `Shown without the host SDK because the delivery API at ${new URL(views.delivery.url).origin} is not reachable from this client; data and actions are not connected.`,
    );
    const calls = (await view.messages()).filter((message) => message.method === 'tools/call').map((message) => message.message);
    expect(calls).toEqual([expect.objectContaining({ params: { name: 'get_variant_html', arguments: { componentId, variantId: latest.variantId } } })]);
  } finally {
    await page.unroute('**/host/v1.js');
  }
  // The refused load is the only problem: the srcdoc frame passes the view's CSP, and the component runs in it.
  expect(views.host.problems.splice(0)).toEqual([`error: Failed to load resource: net::ERR_FAILED (${sdk})`]);
});
