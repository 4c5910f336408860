import { saveComponentApp } from '@cp/domain';
import { publish, upload } from '../../../delivery-api/test/support/seed.js';
import { HANDSHAKE, splitAtInitialized } from './support/app-host.js';
import { startViewStack, type ViewStack } from './support/view-stack.js';

/*
 * A component offered as an app, in a real web host (docs/mcp-apps.md, section 2): the view is
 * the component's own file with the bridge injected, under the CSP of its resource (no origin at
 * all), the extension's AppBridge on the host page. A component written for the host SDK works
 * unchanged: data from the model's arguments, actions to a tool or to the conversation, the
 * host's theme, its size. The bridge's details are asserted once here; the rest of the contract
 * is test/component-apps.test.ts's.
 */
const PRICE_TAG = `<!doctype html><html><head><meta charset="utf-8"><style>
body{margin:0}
.tag{font-family:var(--font-sans,system-ui);color:var(--color-text-primary,#111);padding:12px;border:1px solid var(--color-border-primary,#ccc)}
</style></head><body><div class="tag"><p>Price: <strong id="amount">…</strong></p>
<button type="button" id="buy">Buy</button> <button type="button" id="refresh">Refresh</button></div>
<script>
{
  const send = window.cpSend, root = window.cpRoot;
  let sku = null;
  window.cpReceive = (data) => {
    sku = data?.sku ?? null;
    root.querySelector('#amount').textContent = String(data?.price ?? '…');
  };
  root.querySelector('#buy').addEventListener('click', () => send('buy', { sku }));
  root.querySelector('#refresh').addEventListener('click', () => send('refresh', {}));
}
</script></body></html>`;

let views: ViewStack;

beforeAll(async () => {
  views = await startViewStack();
  const actor = { userId: views.user.id };
  const { componentId, variantId } = await upload(views.stack.domain, actor, {
    name: 'Price tag',
    html: PRICE_TAG,
  });
  await publish(views.stack.domain, actor, componentId, 'prod', variantId);
  const settings = {
    environment: 'prod',
    title: 'Price tag',
    description: 'Shows a price with a buy button.',
    inputSchema: {
      type: 'object',
      properties: { price: { type: 'string' }, sku: { type: 'string' } },
      required: ['price'],
    },
    actionTools: { refresh: 'whoami' },
  };
  await saveComponentApp({ actor, componentId, settings }, views.stack.domain);
}, 120_000);

afterAll(() => views?.close());

afterEach(() => {
  // Every frame: no console error, no CSP violation (the view may load nothing), no protocol warning.
  expect(views.host.problems.splice(0)).toEqual([]);
});

/** Polls the host's record until `found` finds something (the view answers asynchronously). */
async function waitFor<T>(read: () => Promise<T | undefined>): Promise<T> {
  for (let round = 0; round < 50; round += 1) {
    const found = await read();
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the view did not answer within 5 s');
}

test('with a read-only token: the handshake first, the data, the dark theme, actions to the conversation and to a tool, the size, teardown', async () => {
  const view = await views.host.openView({
    toolName: 'show_price_tag_v1',
    args: { price: '12.90 EUR', sku: 'A-1' },
    token: await views.token('mcp:read'),
    theme: 'dark',
  });
  expect(view.uri).toMatch(/^ui:\/\/apps\/[0-9a-f-]{36}\/v1\.html$/);
  await view.frame.getByText('12.90 EUR').waitFor();

  expect((await splitAtInitialized(view)).handshake).toEqual(HANDSHAKE);
  expect(
    await view.frame.evaluate(() => [
      document.documentElement.dataset.theme,
      document.documentElement.style.colorScheme,
      getComputedStyle(document.querySelector('.tag')!).color,
    ]),
  ).toEqual(['dark', 'dark', 'rgb(240, 238, 230)']);

  await view.frame.getByRole('button', { name: 'Buy' }).click();
  expect(await waitFor(async () => (await view.posts())[0])).toEqual({
    role: 'user',
    content: [{ type: 'text', text: 'Price tag sent the action "buy" with {"sku":"A-1"}.' }],
  });

  await view.frame.getByRole('button', { name: 'Refresh' }).click();
  const answer = await waitFor(async () => {
    const all = await view.messages();
    const call = all.find((message) => message.method === 'tools/call');
    return (
      call &&
      all.find(
        (message) =>
          message.direction === 'host→view' && message.method === null && message.id === call.id,
      )
    );
  });
  expect(answer.message).toMatchObject({
    result: { structuredContent: { success: true, userId: views.user.id } },
  });

  const heights = (await view.sizes()).map((size) => size.height);
  expect(heights.length).toBeGreaterThan(0);
  expect(heights.every((height, index) => index === 0 || height !== heights[index - 1])).toBe(true);
  const frameHeight = await view.page
    .locator('#view-slot iframe')
    .evaluate((frame) => frame.getBoundingClientRect().height);
  expect(frameHeight).toBe(heights.at(-1));

  expect(await view.teardown()).toEqual({});
});
