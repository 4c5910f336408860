/// <reference lib="dom" />
import { renderComponent } from '@component-platform/host/server';
import { assign, startRollout } from '@cp/domain';
import { startHostHarness, type HostHarness } from './support/host-harness.js';
import { hostPage } from './support/mount-page.js';

/*
 * A page with a server-rendered component (renderComponent, Declarative Shadow
 * DOM) in real Chromium: shown without JavaScript; with it, the SDK adopts the
 * same nodes, runs the component's scripts once with the server's data, and
 * follows later releases; a variant released after the server rendered wins; a key picks the
 * user's arm of a rollout on the server as the SDK does in the page.
 */

let harness: HostHarness;
beforeAll(async () => {
  harness = await startHostHarness();
}, 120_000);
afterAll(() => harness?.close());

interface Probe {
  runs?: Record<string, number>;
  loads: string[];
  before: Element | null;
  contentChanges: number;
  componentNode(id: string): Element | null;
}
declare const window: Window & Probe;

/** Counts its script runs per label in `window.runs`; shows the label and the data cpReceive got. */
const version = (label: string) => `<!doctype html><html><head><style>#label { color: rgb(0, 0, 255); }</style></head>
<body><p id="label">${label}</p><p id="data">no data</p>
<script>{ const root = cpRoot; window.runs = window.runs || {}; window.runs['${label}'] = (window.runs['${label}'] || 0) + 1;
  cpReceive = (data) => { root.getElementById('data').textContent = data.name; }; }</script></body></html>`;

const DATA = { name: 'From the "server" <b>&amp;</b>' };

/** The host page: the SDK, the server's element, then a probe that keeps the component's node before the SDK runs. */
const page = (element: string): string =>
  hostPage(
    harness,
    `${element}
<script>
  window.loads = [];
  const element = document.querySelector('cp-component');
  element.addEventListener('cp-load', (event) => window.loads.push(event.detail.variantId));
  // The element's root > content > box > the component's host, whose root holds the component (open roots all the way).
  window.componentNode = (id) => element.shadowRoot.querySelector('div > div > div').shadowRoot.getElementById(id);
  window.before = window.componentNode('label');
  // Boxes added to or removed from the element's content: a render or a swap.
  window.contentChanges = 0;
  new MutationObserver((records) => (window.contentChanges += records.length)).observe(element.shadowRoot.querySelector('div'), { childList: true });
</script>`,
  );

it('shows the component with JavaScript disabled', async () => {
  const { componentId } = await harness.aComponent(version('one'), 'prod');
  const element = await renderComponent({ componentId, env: 'prod', baseUrl: harness.delivery.url, data: DATA });
  const context = await harness.browser.newContext({ javaScriptEnabled: false });
  try {
    const tab = await context.newPage();
    await tab.goto(page(element));
    const label = tab.locator('cp-component #label');
    expect(await label.textContent()).toBe('one');
    expect(await label.evaluate((node) => getComputedStyle(node).color)).toBe('rgb(0, 0, 255)');
    expect(await tab.locator('cp-component #data').textContent()).toBe('no data');
  } finally {
    await context.close();
  }
});

it('with JavaScript, adopts the same nodes, runs the scripts once with the data, then follows a publish (live)', async () => {
  const { componentId, variantId } = await harness.aComponent(version('one'), 'prod');
  const element = await renderComponent({ componentId, env: 'prod', baseUrl: harness.delivery.url, data: DATA, live: true });
  const { context, page: tab, consoleErrors } = await harness.open(page(element));
  try {
    await tab.waitForFunction(() => window.loads.length === 1);
    expect(await tab.evaluate(() => window.loads)).toEqual([variantId]);
    expect(await tab.evaluate(() => window.runs)).toEqual({ one: 1 });
    expect(await tab.evaluate(() => window.contentChanges)).toBe(0);
    expect(await tab.evaluate(() => window.before!.isConnected && window.before === window.componentNode('label'))).toBe(true);
    expect(await tab.locator('cp-component #data').textContent()).toBe(DATA.name);

    const second = await harness.aVariant(componentId, version('two'), 'prod');
    await tab.waitForFunction((id) => window.loads.includes(id), second.variantId, { timeout: 10_000 });
    expect(await tab.locator('cp-component #label').textContent()).toBe('two');
    expect(await tab.locator('cp-component #data').textContent()).toBe(DATA.name);
    expect(await tab.evaluate(() => window.runs)).toEqual({ one: 1, two: 1 });
    expect(consoleErrors).toEqual([]);
  } finally {
    await context.close();
  }
});

it('renders the newer variant when one was released after the server rendered, without running the old one', async () => {
  const { componentId } = await harness.aComponent(version('one'), 'prod');
  const element = await renderComponent({ componentId, env: 'prod', baseUrl: harness.delivery.url, data: DATA });
  const second = await harness.aVariant(componentId, version('two'), 'prod');
  // The delivery cache learns of the release through the change feed: wait until /consume names it.
  const consumed = async (): Promise<string> =>
    ((await (await fetch(`${harness.delivery.url}/consume?id=${componentId}&env=prod`, { cache: 'no-store' })).json()) as { item: { consume_variant: { id: string }[] } }).item
      .consume_variant[0]!.id;
  for (let at = Date.now(); (await consumed()) !== second.variantId; ) {
    if (Date.now() - at > 10_000) throw new Error('the release did not reach /consume');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const { context, page: tab, consoleErrors } = await harness.open(page(element));
  try {
    await tab.waitForFunction(() => window.loads.length === 1);
    expect(await tab.evaluate(() => window.loads)).toEqual([second.variantId]);
    expect(await tab.locator('cp-component #label').textContent()).toBe('two');
    expect(await tab.locator('cp-component #data').textContent()).toBe(DATA.name);
    expect(await tab.evaluate(() => window.runs)).toEqual({ two: 1 });
    expect(await tab.evaluate(() => document.querySelector('cp-component')!.shadowRoot!.querySelector('div')!.children.length)).toBe(1);
    expect(consoleErrors).toEqual([]);
  } finally {
    await context.close();
  }
});

it('with a key in the canary bucket, renders the candidate, writes the key and attributes on the element, and the SDK adopts it', async () => {
  const { componentId } = await harness.aComponent(version('one'), 'prod');
  const { variantId: candidateId } = await harness.aVariant(componentId, version('two'));
  await startRollout({ actor: harness.actor, componentId, environment: 'prod', candidateVariantId: candidateId, stages: [{ weight: 50_000, holdMinutes: 60 }] }, harness.stack.domain);
  const live = (await harness.stack.repos.assignments.findLive(componentId, 'prod'))!;
  const attributes = { plan: 'pro' };
  let key = '';
  for (let i = 0; assign(live.segments, (key = `reader-${i}`), attributes)?.variantId !== candidateId; i++);
  // The delivery cache learns of the rollout through the change feed: wait until /consume carries it.
  const revision = async (): Promise<number | undefined> =>
    ((await (await fetch(`${harness.delivery.url}/consume?id=${componentId}&env=prod`)).json()) as { assignment?: { revision: number } }).assignment?.revision;
  for (let at = Date.now(); (await revision()) !== live.revision; ) {
    if (Date.now() - at > 10_000) throw new Error('the rollout did not reach /consume');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const element = await renderComponent({ componentId, env: 'prod', baseUrl: harness.delivery.url, data: DATA, key, attributes });
  expect(element).toContain(`key="${key}"`);
  expect(element).toContain(`attributes="${JSON.stringify(attributes).replaceAll('"', '&quot;')}"`);
  const { context, page: tab, consoleErrors } = await harness.open(page(element));
  try {
    await tab.waitForFunction(() => window.loads.length === 1);
    expect(await tab.evaluate(() => window.loads)).toEqual([candidateId]);
    expect(await tab.locator('cp-component #label').textContent()).toBe('two');
    expect(await tab.evaluate(() => window.runs)).toEqual({ two: 1 });
    expect(await tab.evaluate(() => window.contentChanges)).toBe(0);
    expect(await tab.evaluate(() => window.before!.isConnected && window.before === window.componentNode('label'))).toBe(true);
    expect(consoleErrors).toEqual([]);
  } finally {
    await context.close();
  }
});
