import type { Page } from '@cp/browser-testing';
import { startHostHarness, type HostHarness } from './support/host-harness.js';
import { componentHtml, events, frameTexts, leftovers, listenersOn, openProbed, until, waitForEvents, type SdkModule } from './support/sdk-probes.js';

/* mount() and unmount(): what a handle does and what it leaves behind, on the real delivery API in Chromium. */

let harness: HostHarness;

beforeAll(async () => {
  harness = await startHostHarness();
}, 120_000);

afterAll(async () => {
  await harness?.close();
});

declare global {
  interface Window {
    sdk: SdkModule;
    handles: ReturnType<SdkModule['mount']>[];
  }
}

/** A host page with the SDK imported as a module into `window.sdk`, and two targets. */
async function openSdkPage(setup?: (page: Page) => Promise<unknown>) {
  const url = harness.page(`<!doctype html><html><body><div id="one"></div><div id="two"></div>
<script type="module">window.sdk = await import('${harness.delivery.url}/host/v1.js'); window.handles = [];</script></body></html>`);
  const opened = await openProbed(harness, url, setup);
  await opened.page.waitForFunction(() => window.sdk !== undefined);
  return opened;
}

const WATCHED = ['window', 'document', 'document.body', 'document.getElementById("one")', 'document.getElementById("two")'];
const listenerSnapshot = async (page: Page) => Promise.all(WATCHED.map((expression) => listenersOn(page, expression)));

it('mounts through the function: ready resolves, cp-load reaches the element, two handles side by side', async () => {
  const { componentId, variantId } = await harness.aComponent(componentHtml('Handle card'), 'prod');
  const { page } = await openSdkPage();
  await page.evaluate(
    async ([id, base]) => {
      for (const target of ['one', 'two']) {
        window.handles.push(window.sdk.mount(document.getElementById(target)!, { componentId: id!, env: 'prod', baseUrl: base }));
      }
      await Promise.all(window.handles.map((handle) => handle.ready));
    },
    [componentId, harness.delivery.url],
  );
  const loads = await events(page, 'cp-load');
  expect(loads.map((load) => [load.target, load.detail.variantId]).sort()).toEqual([
    ['one', variantId],
    ['two', variantId],
  ]);
  expect(await frameTexts(page)).toEqual(['Handle card', 'Handle card']);

  await page.evaluate(() => window.handles[0]!.unmount());
  expect(await frameTexts(page)).toEqual(['Handle card']);
  expect(await page.locator('#one iframe').count()).toBe(0);
});

it('a later mount writes into the warm frame the page keeps, moved in without a reload; one warm frame remains', async () => {
  const { componentId } = await harness.aComponent(componentHtml('Warm card'), 'prod');
  const frameLoads: string[] = [];
  const { page } = await openSdkPage(async (p) => p.on('request', (request) => request.url().includes('/host/frame/') && frameLoads.push(request.url())));
  const mountInto = (target: string) =>
    page.evaluate(
      async ([id, base, into]) => {
        const handle = window.sdk.mount(document.getElementById(into!)!, { componentId: id!, env: 'prod', baseUrl: base });
        window.handles.push(handle);
        await handle.ready;
      },
      [componentId, harness.delivery.url, target],
    );
  await mountInto('one');
  // After a render the page keeps a frame that has loaded the frame document, out of sight.
  await page.locator('[data-cp-warm] iframe').waitFor({ state: 'attached' });
  await until(() => frameLoads.length === 2);
  await page.locator('[data-cp-warm] iframe').evaluate((frame) => (frame.id = 'was-warm'));

  await mountInto('two');
  expect(await page.locator('#two iframe').getAttribute('id')).toBe('was-warm');
  expect(await frameTexts(page)).toEqual(['Warm card', 'Warm card']);
  // Moved by moveBefore, it kept its document (a reload would have requested it again, and lost the handshake).
  await until(() => frameLoads.length === 3); // the refill
  expect(await page.locator('[data-cp-warm] iframe').count()).toBe(1);
  expect(await page.locator('[data-cp-warm] iframe').getAttribute('id')).toBeNull();
});

it('unmount leaves no frame, listener, timer or stream, live components included', async () => {
  const a = await harness.aComponent(componentHtml('Live A'), 'prod');
  const b = await harness.aComponent(componentHtml('Live B'), 'prod');
  const { page } = await openSdkPage();
  const before = await listenerSnapshot(page);
  expect(before[1]).toEqual(['cp-action', 'cp-error', 'cp-load']); // the probes' own: what is seen is counted
  const timersBefore = (await leftovers(page)).timers;

  await page.evaluate(
    async ([idA, idB, base]) => {
      window.handles.push(window.sdk.mount(document.getElementById('one')!, { componentId: idA!, env: 'prod', baseUrl: base, live: true }));
      window.handles.push(window.sdk.mount(document.getElementById('two')!, { componentId: idB!, env: 'prod', baseUrl: base, live: true }));
      await Promise.all(window.handles.map((handle) => handle.ready));
    },
    [a.componentId, b.componentId, harness.delivery.url],
  );
  expect(await frameTexts(page)).toEqual(['Live A', 'Live B']);
  // Live: the page watches both ids, through the stream or, while it is unavailable, by polling (a timer).
  await page.waitForFunction(() => window.sdkSources.length > 0 || window.sdkTimers.size > 0);

  await page.evaluate(() => window.handles[0]!.unmount());
  expect(await frameTexts(page)).toEqual(['Live B']);
  await page.evaluate(() => window.handles[1]!.unmount());

  expect(await leftovers(page)).toEqual({ frames: 0, openSources: 0, timers: timersBefore });
  expect(await listenerSnapshot(page)).toEqual(before);
  expect(await page.evaluate(() => [document.getElementById('one')!.innerHTML, document.getElementById('two')!.innerHTML])).toEqual(['', '']);
});

it('unmount while the request is in flight aborts it and renders nothing later', async () => {
  const { componentId } = await harness.aComponent(componentHtml('Never shown'), 'prod');
  let letGo = (): void => undefined;
  const held = new Promise<void>((resolve) => (letGo = resolve));
  let arrived = (): void => undefined;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  const aborted: string[] = [];
  // The request is held in the browser (simulated slowness) so that unmount meets it in flight.
  const { page } = await openSdkPage(async (p) => {
    // The request of /consume (the frame started at mount start may be cut off loading its document too).
    p.on('requestfailed', (request) => request.url().includes('/consume?') && aborted.push(request.failure()?.errorText ?? ''));
    await p.route('**/consume?**', async (route) => {
      arrived();
      await held;
      await route.continue().catch(() => undefined);
    });
  });
  await page.evaluate(
    ([id, base]) => {
      window.handles.push(window.sdk.mount(document.getElementById('one')!, { componentId: id!, env: 'prod', baseUrl: base }));
    },
    [componentId, harness.delivery.url],
  );
  await reached;
  await page.evaluate(() => window.handles[0]!.unmount());
  await until(() => aborted.length > 0);
  letGo();
  expect(aborted).toEqual(['net::ERR_ABORTED']);
  expect(await events(page)).toEqual([]);
  expect(await leftovers(page)).toMatchObject({ frames: 0 });
});

it('unmount during the wait between retries clears the timer', async () => {
  let requests = 0;
  // Simulated outage: every /consume request gets a 503 asking to retry in a minute, so the
  // wait is certain to outlast the test however slow the machine (a backoff could fire first).
  const { page } = await openSdkPage((p) =>
    p.route('**/consume?**', async (route) => {
      requests++;
      await route.fulfill({ status: 503, headers: { 'Retry-After': '60' }, body: '' });
    }),
  );
  const timersBefore = (await leftovers(page)).timers;
  await page.evaluate(
    ([id, base]) => {
      window.handles.push(window.sdk.mount(document.getElementById('one')!, { componentId: id!, env: 'prod', baseUrl: base }));
    },
    [crypto.randomUUID(), harness.delivery.url],
  );
  await waitForEvents(page, 'cp-error');
  expect(requests).toBeGreaterThan(0);
  // The minute's wait, and the usage batch holding the cp-error's event unless it was sent already.
  expect((await leftovers(page)).timers).toBeGreaterThan(timersBefore);
  await page.evaluate(() => window.handles[0]!.unmount());
  expect((await leftovers(page)).timers).toBe(timersBefore);
});
