/// <reference lib="dom" />
import type { Page } from '@cp/browser-testing';
import { startHostHarness, type HostHarness } from './support/host-harness.js';
import { component, ISOLATIONS, mountPage, outcomeOf, settled } from './support/mount-page.js';

/*
 * Sizing: with autoHeight the element follows the component's height (set
 * before `ready` resolves, no inner scrollbar); without it a `cp:size` request
 * sets the height.
 */

let harness: HostHarness;
beforeAll(async () => {
  harness = await startHostHarness();
}, 120_000);
afterAll(() => harness?.close());

const GROWING = `<!doctype html><html><head><style>body { margin: 0; } .block { height: 100px; }</style></head>
<body><div class="block"></div><button id="grow">grow</button><script>(() => {
  const root = window.cpRoot;
  root.getElementById('grow').addEventListener('click', () => root.getElementById('grow').before(Object.assign(document.createElement('div'), { className: 'block' })));
})();</script></body></html>`;

const slotHeight = (page: Page): Promise<number> => page.evaluate(() => Math.round(document.getElementById('slot')!.getBoundingClientRect().height));
const heightAtReady = (page: Page): Promise<number> => page.evaluate(() => Math.round((window as unknown as { heightAtReady: number }).heightAtReady));

describe.each(ISOLATIONS)('%s isolation', (isolation) => {
  it('follows a component that grows, with the height set when ready resolves and no inner scrollbar', async () => {
    const { componentId } = await harness.aComponent(GROWING);
    const { context, page, consoleErrors } = await harness.open(mountPage(harness, { componentId, isolation, options: 'autoHeight: true' }));
    try {
      expect(await outcomeOf(page)).toBe('ready');
      const first = await heightAtReady(page);
      expect(first).toBeGreaterThan(100);
      expect(await slotHeight(page)).toBe(first);

      await component(page, isolation).locator('#grow').click();
      expect(await settled(() => slotHeight(page), first + 100)).toBe(first + 100);
      await component(page, isolation).locator('#grow').click();
      expect(await settled(() => slotHeight(page), first + 200)).toBe(first + 200);
      if (isolation === 'iframe') {
        const frame = page.locator('#slot iframe');
        expect(await frame.getAttribute('scrolling')).toBe('no');
        // The frame's document fits its viewport: nothing to scroll.
        const { scrollHeight, innerHeight } = await component(page, 'iframe')
          .locator('html')
          .evaluate((html) => ({ scrollHeight: html.scrollHeight, innerHeight: window.innerHeight }));
        expect(scrollHeight).toBe(innerHeight);
      }
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('without autoHeight, applies the height the component asks for with cp:size', async () => {
    const { componentId } = await harness.aComponent(`<p>short</p><script>(() => { const send = window.cpSend; send('cp:size', { height: 321 }); send('cp:size', 'malformed'); })();</script>`);
    const { context, page } = await harness.open(mountPage(harness, { componentId, isolation, options: 'autoHeight: false' }));
    try {
      expect(await outcomeOf(page)).toBe('ready');
      expect(await settled(() => slotHeight(page), 321)).toBe(321);
      expect(await page.evaluate(() => (window as unknown as { actions: unknown[] }).actions)).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
