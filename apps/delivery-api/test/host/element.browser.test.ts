import { createPreviewKey, setPrivatePreviews } from '@cp/domain';
import { aUser, upload } from '../support/seed.js';
import { startHostHarness, type HostHarness } from './support/host-harness.js';
import { componentFrames, componentHtml, events, frameTexts, openProbed, waitForEvents } from './support/sdk-probes.js';

/* <cp-component> in plain HTML: the delivery API, the host page and Chromium are real. */

let harness: HostHarness;

beforeAll(async () => {
  harness = await startHostHarness();
}, 120_000);

afterAll(async () => {
  await harness?.close();
});

const SLOTS = '<div slot="loading" class="loading">Loading…</div><div slot="error" class="error">Failed</div>';

it('renders the component released to the environment and reports cp-load', async () => {
  const { componentId, variantId } = await harness.aComponent(componentHtml('Released card'), 'prod');
  await harness.aVariant(componentId, componentHtml('Newer preview')); // not released: prod keeps the first
  const url = harness.hostPage(`<cp-component id="card" component-id="${componentId}" env="prod">${SLOTS}</cp-component>`);
  const { page, consoleErrors } = await openProbed(harness, url);

  const [load] = await waitForEvents(page, 'cp-load');
  expect(load).toEqual({ type: 'cp-load', target: 'card', detail: { variantId, variantName: 'v1' } });
  expect(await frameTexts(page)).toEqual(['Released card']);
  expect(await page.locator('.loading').isVisible()).toBe(false);
  expect(await page.locator('.error').isVisible()).toBe(false);
  expect(await page.locator('cp-component').evaluate((el) => getComputedStyle(el).display)).toBe('block');
  expect(await events(page, 'cp-error')).toEqual([]);
  expect(consoleErrors).toEqual([]);
});

it('renders the preview with the preview attribute or without env', async () => {
  const { componentId } = await harness.aComponent(componentHtml('First'), 'prod');
  const { variantId: latest } = await harness.aVariant(componentId, componentHtml('Latest'));
  const url = harness.hostPage(
    `<cp-component id="a" component-id="${componentId}" env="prod" preview></cp-component><cp-component id="b" component-id="${componentId}"></cp-component>`,
  );
  const { page } = await openProbed(harness, url);
  const loads = await waitForEvents(page, 'cp-load', 2);
  expect(loads.map((load) => load.detail.variantId)).toEqual([latest, latest]);
  expect(await frameTexts(page)).toEqual(['Latest', 'Latest']);
});

it('renders a private preview with the preview-key attribute and with mount({ previewKey }); without a key the error slot', async () => {
  // An organization of its own: the harness's keeps previews public for the other cases.
  const domain = harness.stack.domain;
  const owner = await aUser(domain);
  const { componentId, variantId } = await upload(domain, owner.actor, { html: componentHtml('Private draft') });
  await setPrivatePreviews({ actor: owner.actor, organizationId: owner.organizationId, enabled: true }, domain);
  const { secret } = await createPreviewKey({ actor: owner.actor, organizationId: owner.organizationId, name: 'browser' }, domain);
  const url = harness.hostPage(`<cp-component id="keyed" component-id="${componentId}" preview-key="${secret}"></cp-component>
<cp-component id="keyless" component-id="${componentId}">${SLOTS}</cp-component><div id="mounted"></div>
<script type="module">
import { mount } from '${harness.delivery.url}/host/v1.js';
mount(document.getElementById('mounted'), { componentId: '${componentId}', previewKey: '${secret}' });
</script>`);
  const { page } = await openProbed(harness, url);

  const loads = await waitForEvents(page, 'cp-load', 2);
  expect(loads.map((load) => [load.target, load.detail.variantId]).sort()).toEqual([['keyed', variantId], ['mounted', variantId]]);
  const [refused] = await waitForEvents(page, 'cp-error', 1, 'keyless');
  expect(refused!.detail).toMatchObject({ problem: { status: 404, code: 'NOT_FOUND' }, retrying: false });
  expect(await page.locator('.error').isVisible()).toBe(true);
  expect(await frameTexts(page)).toEqual(['Private draft', 'Private draft']);
});

it('shows the loading slot while fetching, then the component', async () => {
  const { componentId } = await harness.aComponent(componentHtml('Slow card'), 'prod');
  let letGo = (): void => undefined;
  const held = new Promise<void>((resolve) => (letGo = resolve));
  // Simulated slowness: the request waits in the browser until the test has looked at the loading slot.
  const { page } = await openProbed(harness, harness.hostPage(''), (p) =>
    p.route('**/consume?**', async (route) => {
      await held;
      await route.continue();
    }),
  );
  await page.evaluate((id) => {
    document.body.innerHTML = `<cp-component id="slow" component-id="${id}" env="prod"><div slot="loading" class="loading">Loading…</div><div slot="error" class="error">Failed</div></cp-component>`;
  }, componentId);
  await page.locator('.loading').waitFor({ state: 'visible' });
  expect(await page.locator('.error').isVisible()).toBe(false);
  // Meanwhile its frame loads the frame document, out of sight.
  expect(await componentFrames(page)).toBe(1);
  expect(await page.locator('#slow iframe').isVisible()).toBe(false);

  letGo();
  await waitForEvents(page, 'cp-load');
  expect(await page.locator('.loading').isVisible()).toBe(false);
  expect(await frameTexts(page)).toEqual(['Slow card']);
});

it('renders two instances of the same component side by side', async () => {
  const { componentId, variantId } = await harness.aComponent(componentHtml('Twin'), 'prod');
  const url = harness.hostPage(
    `<cp-component id="one" component-id="${componentId}" env="prod"></cp-component><cp-component id="two" component-id="${componentId}" env="prod"></cp-component>`,
  );
  const { page } = await openProbed(harness, url);
  const loads = await waitForEvents(page, 'cp-load', 2);
  expect(loads.map((load) => [load.target, load.detail.variantId]).sort()).toEqual([
    ['one', variantId],
    ['two', variantId],
  ]);
  expect(await frameTexts(page)).toEqual(['Twin', 'Twin']);

  await page.evaluate(() => document.getElementById('one')!.remove());
  expect(await frameTexts(page)).toEqual(['Twin']);
});

it('remounts when an identifying attribute changes, once for several in one task', async () => {
  const first = await harness.aComponent(componentHtml('First component'), 'prod');
  const second = await harness.aComponent(componentHtml('Second component'), 'staging');
  const { page } = await openProbed(harness, harness.hostPage(`<cp-component id="c" component-id="${first.componentId}" env="prod"></cp-component>`));
  await waitForEvents(page, 'cp-load');

  await page.evaluate((id) => {
    const el = document.getElementById('c')!;
    el.setAttribute('component-id', id);
    el.setAttribute('env', 'staging');
  }, second.componentId);
  const loads = await waitForEvents(page, 'cp-load', 2);
  expect(loads[1]!.detail.variantId).toBe(second.variantId);
  expect(await frameTexts(page)).toEqual(['Second component']);
  expect(await events(page, 'cp-error')).toEqual([]); // no mount with half the new attributes
});

it('unmounts when removed and mounts again when put back', async () => {
  const { componentId } = await harness.aComponent(componentHtml('Movable'), 'prod');
  const { page } = await openProbed(harness, harness.hostPage(`<cp-component id="m" component-id="${componentId}" env="prod"></cp-component>`));
  await waitForEvents(page, 'cp-load');

  await page.evaluate(() => {
    (window as unknown as { parked: Element }).parked = document.getElementById('m')!;
    document.getElementById('m')!.remove();
  });
  expect(await componentFrames(page)).toBe(0);
  await page.evaluate(() => document.body.append((window as unknown as { parked: Element }).parked));
  await waitForEvents(page, 'cp-load', 2);
  expect(await frameTexts(page)).toEqual(['Movable']);
});

it('exposes the mount: ready resolves, and data set before the element was defined is kept', async () => {
  const { componentId } = await harness.aComponent(componentHtml('Data card'), 'prod');
  // An element created and given data before the SDK defines <cp-component> (a framework may do this).
  const url = harness.page(`<!doctype html><html><body><cp-component id="early" component-id="${componentId}" env="prod"></cp-component>
<script>document.getElementById('early').data = { early: true };</script>
<script type="module" src="${harness.delivery.url}/host/v1.js"></script></body></html>`);
  const { page } = await openProbed(harness, url);
  const state = await page.evaluate(async () => {
    const el = document.getElementById('early') as HTMLElement & { data: unknown; ready: Promise<void> };
    await el.ready;
    return { data: el.data, own: Object.prototype.hasOwnProperty.call(el, 'data') };
  });
  expect(state).toEqual({ data: { early: true }, own: false });
});
