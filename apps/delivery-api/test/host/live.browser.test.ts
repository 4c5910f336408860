import type { Page } from '@cp/browser-testing';
import { startHostHarness, type HostHarness } from './support/host-harness.js';
import { componentHtml, leftovers, openProbed, until, waitForEvents } from './support/sdk-probes.js';

/*
 * `live`: releases made through the domain's use cases (as the MCP tools make
 * them) reach a mounted component through the delivery API's change stream, or
 * through conditional polling where streaming is unavailable. Real server,
 * real database change feed, real Chromium.
 */

let harness: HostHarness;

beforeAll(async () => {
  harness = await startHostHarness();
}, 120_000);

afterAll(async () => {
  await harness?.close();
});

/** A component that shows its label and the host's data (`cpReceive`). */
const version = (label: string) =>
  componentHtml(label, `const root = window.cpRoot; window.cpReceive = (data) => { root.getElementById('data').textContent = data.greeting; };`).replace(
    '</p>',
    '</p><p id="data"></p>',
  );

/**
 * Host page: the element with data, and a probe that counts animation frames,
 * after the first load, where no rendered frame was on show (every frame hidden
 * for rendering, or none). The shell's part of "no blank frame"; the frame's own
 * height is the render core's (autoHeight).
 */
const livePage = (componentId: string, attributes = '') =>
  harness.hostPage(`<cp-component id="c" component-id="${componentId}" env="prod" live ${attributes}><div slot="error" class="error">Failed</div></cp-component>
<script type="module">
  const element = document.getElementById('c');
  element.data = { greeting: 'hello from the host' };
  window.emptyFrames = 0;
  const shown = (frame) => frame.checkVisibility({ visibilityProperty: true });
  const sample = () => {
    if (window.sdkEvents.some((e) => e.type === 'cp-load' && e.target === 'c') && ![...element.shadowRoot.querySelectorAll('iframe')].some(shown)) window.emptyFrames++;
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
</script>`);

const frameText = (page: Page, selector: string) => page.frameLocator('#c iframe').locator(selector).textContent();

/** Records every /consume answer's status and whether it was conditional. */
function consumeLog(page: Page): { status: number; conditional: boolean }[] {
  const log: { status: number; conditional: boolean }[] = [];
  page.on('response', (response) => {
    const request = response.request();
    if (request.url().includes('/consume?') && request.method() === 'GET') {
      log.push({ status: response.status(), conditional: request.headers()['if-none-match'] !== undefined });
    }
  });
  return log;
}

async function expectSwitch(page: Page, variantId: string) {
  const loads = await waitForEvents(page, 'cp-load', 2, 'c');
  expect(loads[1]!.detail.variantId).toBe(variantId);
  expect(await frameText(page, '#text')).toBe('two');
  expect(await frameText(page, '#data')).toBe('hello from the host');
  expect(await page.locator('#c iframe').count()).toBe(1);
  expect(await page.evaluate(() => (window as unknown as { emptyFrames: number }).emptyFrames)).toBe(0);
}

it('switches to a newly released variant by polling /consume when the browser has no EventSource, keeping data', async () => {
  const { componentId } = await harness.aComponent(version('one'), 'prod');
  let log: { status: number; conditional: boolean }[] = [];
  const { page } = await openProbed(harness, livePage(componentId), async (p) => {
    log = consumeLog(p);
    // Before any script of the page: a browser without EventSource.
    await p.addInitScript(() => delete (window as { EventSource?: unknown }).EventSource);
  });
  await waitForEvents(page, 'cp-load');
  expect(await frameText(page, '#data')).toBe('hello from the host');
  expect(await page.evaluate(() => typeof EventSource)).toBe('undefined');

  // One conditional poll answered 304 before the release: the page revalidates, it does not refetch.
  const polled = log.length;
  await until(() => log.length > polled);
  expect(log[log.length - 1]).toEqual({ status: 304, conditional: true });

  const { variantId } = await harness.aVariant(componentId, version('two'), 'prod');
  await expectSwitch(page, variantId);
});

it('falls back to polling while the change stream is refused', async () => {
  const { componentId } = await harness.aComponent(version('one'), 'prod');
  let refusals = 0;
  // Simulated refusal: a proxy in front of the API answering 503 to the stream (the API's own 503 needs its drain).
  const { page } = await openProbed(harness, livePage(componentId), (p) =>
    p.route('**/changes?**', async (route) => {
      refusals++;
      await route.fulfill({
        status: 503,
        headers: { 'Content-Type': 'application/problem+json', 'Access-Control-Allow-Origin': '*' },
        body: '{"status":503,"code":"UNAVAILABLE"}',
      });
    }),
  );
  await waitForEvents(page, 'cp-load');
  await page.waitForFunction(() => window.sdkSources.length > 0 && window.sdkSources.every((s) => s.readyState === EventSource.CLOSED));
  expect(refusals).toBeGreaterThan(0);

  const { variantId } = await harness.aVariant(componentId, version('two'), 'prod');
  await expectSwitch(page, variantId);
});

it('waits for a first release while live, then renders it', async () => {
  const { componentId } = await harness.aComponent(version('zero'));
  await harness.aComponent(componentHtml('makes prod exist'), 'prod');
  const { page } = await openProbed(harness, livePage(componentId));
  const [error] = await waitForEvents(page, 'cp-error');
  expect(error!.detail).toMatchObject({ retrying: true, problem: { status: 404, code: 'NOT_FOUND', resource: 'Release' } });
  await page.locator('.error').waitFor({ state: 'visible' });

  const { variantId } = await harness.aVariant(componentId, version('one'), 'prod');
  const [load] = await waitForEvents(page, 'cp-load');
  expect(load!.detail.variantId).toBe(variantId);
  expect(await frameText(page, '#text')).toBe('one');
  expect(await frameText(page, '#data')).toBe('hello from the host');
  expect(await page.locator('.error').isVisible()).toBe(false);
  await page.evaluate(() => (document.getElementById('c') as HTMLElement & { ready: Promise<void> }).ready);
});

it('shares one change stream per page, switches only the changed component, and reopens it as components come and go', async () => {
  const a = await harness.aComponent(version('one'), 'prod');
  const b = await harness.aComponent(version('b'), 'prod');
  const c = await harness.aComponent(version('c'), 'prod');
  const revalidated: string[] = [];
  const { page } = await openProbed(harness, livePage(a.componentId, 'auto-height="false" analytics="off"'), async (p) => {
    p.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname === '/consume' && request.headers()['if-none-match']) revalidated.push(url.searchParams.get('id')!);
    });
  });
  await page.evaluate((id) => {
    document.body.insertAdjacentHTML('beforeend', `<cp-component id="b" component-id="${id}" env="prod" live analytics="off"></cp-component>`);
  }, b.componentId);
  await waitForEvents(page, 'cp-load', 2);
  const streams = () =>
    page.evaluate(() => window.sdkSources.map((source) => ({ url: new URL(source.url).search, state: source.readyState })));
  await page.waitForFunction(() => window.sdkSources.some((source) => source.readyState === EventSource.OPEN));
  const open = (await streams()).filter((stream) => stream.state === 1);
  expect(open).toHaveLength(1);
  expect(new URLSearchParams(open[0]!.url).get('ids')!.split(',').sort()).toEqual([a.componentId, b.componentId].sort());
  expect((await leftovers(page)).timers).toBe(0); // no polling while the stream is open (analytics off: no batch timer either)

  revalidated.length = 0;
  const { variantId } = await harness.aVariant(a.componentId, version('two'), 'prod');
  await expectSwitch(page, variantId);
  // The upload and the release each named a (and only a): b was left alone.
  expect([...new Set(revalidated)]).toEqual([a.componentId]);

  // A third component: the stream is reopened for the three ids, resuming after the last event.
  const before = (await streams()).length;
  await page.evaluate((id) => {
    document.body.insertAdjacentHTML('beforeend', `<cp-component id="c3" component-id="${id}" env="prod" live analytics="off"></cp-component>`);
  }, c.componentId);
  await page.waitForFunction((n) => window.sdkSources.length === n + 1 && window.sdkSources[n]!.readyState === EventSource.OPEN, before);
  const all = await streams();
  expect(all.slice(0, before).map((stream) => stream.state)).toEqual(Array(before).fill(2));
  const reopened = new URLSearchParams(all[before]!.url);
  expect(reopened.get('ids')!.split(',').sort()).toEqual([a.componentId, b.componentId, c.componentId].sort());
  const changeIds = await page.evaluate(() => window.sdkChangeIds);
  expect(changeIds.length).toBeGreaterThan(0);
  expect(reopened.get('lastEventId')).toBe(changeIds[changeIds.length - 1]);

  await page.evaluate(() => document.querySelectorAll('cp-component').forEach((element) => element.remove()));
  expect(await leftovers(page)).toEqual({ frames: 0, openSources: 0, timers: 0 });
}, 60_000);
