/// <reference lib="dom" />
import type { Page } from '@cp/browser-testing';
import { startHostHarness, type HostHarness } from './support/host-harness.js';
import { component, inComponentWindow, ISOLATIONS, mountPage, outcomeOf, settled } from './support/mount-page.js';

/*
 * Sizing: with autoHeight the element follows the component's height (set
 * before `ready` resolves, no inner scrollbar), up to maxHeight, and settles
 * for components sized by their viewport; without it a `cp:size` request sets
 * the height. A `cp:overlay` request shows a fixed modal over the whole page.
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

// A modal (`position: fixed`) taller than the component, shown in full through the overlay request.
const MODAL = `<!doctype html><html><head><style>body { margin: 0; } #modal { position: fixed; inset: 0; background: rgb(0 0 0 / 0.4); }
#dialog { width: 240px; height: 320px; margin: 40px auto; background: white; }</style></head>
<body><button id="open">open</button><div id="modal" hidden><div id="dialog"><button id="close">close</button></div></div><script>{
  const send = window.cpSend, root = window.cpRoot, modal = root.getElementById('modal');
  root.getElementById('open').addEventListener('click', () => { modal.hidden = false; send('cp:overlay', { open: true }); });
  root.getElementById('close').addEventListener('click', () => { modal.hidden = true; send('cp:overlay', { open: false }); });
}</script></body></html>`;

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

  it('shows a position: fixed modal in full while the component asks for the overlay, and takes its place back after', async () => {
    const { componentId } = await harness.aComponent(MODAL);
    const { context, page, consoleErrors } = await harness.open(mountPage(harness, { componentId, isolation, options: 'autoHeight: true' }));
    try {
      expect(await outcomeOf(page)).toBe('ready');
      const height = await slotHeight(page);
      const framePosition = (): Promise<string> => page.evaluate(() => document.querySelector<HTMLElement>('#slot iframe')?.style.position ?? '');
      await component(page, isolation).locator('#open').click();
      // The dialog lies within the page's viewport and, in a frame, within the frame.
      const viewport = { x: 0, y: 0, ...page.viewportSize()! };
      const dialogShown = async (): Promise<boolean> => {
        const dialog = await component(page, isolation).locator('#dialog').boundingBox();
        const frame = isolation === 'iframe' ? await page.locator('#slot iframe').boundingBox() : viewport;
        const inside = (a: typeof dialog, b: typeof dialog): boolean =>
          !!a && !!b && a.x >= b.x && a.y >= b.y && a.x + a.width <= b.x + b.width && a.y + a.height <= b.y + b.height;
        return inside(dialog, frame) && inside(dialog, viewport);
      };
      expect(await settled(dialogShown, true)).toBe(true);
      expect(await slotHeight(page)).toBe(height);
      await component(page, isolation).locator('#close').click();
      expect(await settled(framePosition, '')).toBe('');
      expect(await slotHeight(page)).toBe(height);
      expect(await dialogShown()).toBe(false);
      expect(await page.evaluate(() => (window as unknown as { actions: unknown[] }).actions)).toEqual([]);
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

it('refuses an overlay the component asks for unprompted, with no click or key press', async () => {
  const { componentId } = await harness.aComponent(`<p>unprompted</p><script>window.cpSend('cp:overlay', { open: true });</script>`);
  // The page reports through its console alone: Playwright's evaluate counts as a user gesture.
  const report = `<script>document.addEventListener('cp-load', () => console.info('loaded', document.querySelector('#slot iframe').style.position || 'static'));</script>`;
  const context = await harness.browser.newContext();
  try {
    const page = await context.newPage();
    const loaded = page.waitForEvent('console', (message) => message.text().startsWith('loaded'));
    await page.goto(mountPage(harness, { componentId, isolation: 'iframe', before: report }));
    expect((await loaded).text()).toBe('loaded static');
  } finally {
    await context.close();
  }
});

/*
 * Sizing that cannot loop: a component sized by its viewport (`100vh`, `min-height: 100%`) grows
 * when the frame grows, so the frame settles at its content's height instead of following it; the
 * page records each height the SDK gives the frame (its style) and counts them.
 */
describe('iframe isolation, viewport-sized components', () => {
  const ROOT = (style: string, body = ''): string => `<!doctype html><html><head><style>.content { height: 120px; } ${style}</style></head>
<body><div class="root"><div class="content"></div></div>${body}</body></html>`;
  // Grows by an image added after ready (its size known only once loaded), or its block changes height.
  const ON_DATA = `<script>{
  const root = window.cpRoot;
  window.cpReceive = (data) => {
    if (data.image) root.querySelector('.root').append(Object.assign(document.createElement('img'), { src: data.image, style: 'display: block' }));
    if (data.height) root.querySelector('.content').style.height = data.height + 'px';
  };
}</script>`;
  const RECORD_FRAME_HEIGHTS = `<script>
window.frameHeights = [];
new MutationObserver((records) => {
  for (const { target } of records) {
    const height = target.tagName === 'IFRAME' ? parseFloat(target.style.height) : NaN;
    if (!Number.isNaN(height) && height !== (window.frameHeights.at(-1) ?? 0)) window.frameHeights.push(height);
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ['style'] });
</script>`;
  const frameHeights = (page: Page): Promise<number[]> => page.evaluate(() => (window as unknown as { frameHeights: number[] }).frameHeights);
  const nextFrames = (): Promise<unknown> => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));

  /** The heights given to the frame once quiet: the frame rendered twice at its height and the page twice after (or a runaway). */
  async function settledHeights(page: Page): Promise<number[]> {
    for (;;) {
      const before = await frameHeights(page);
      // Runaway, or nothing shown (a frame without height does not render).
      if (before.length > 6 || !before.at(-1)) return before;
      await inComponentWindow(page, 'iframe', nextFrames);
      await page.evaluate(nextFrames);
      const after = await frameHeights(page);
      if (after.length === before.length) return after;
    }
  }

  it('stops at maxHeight (in shadow isolation too), past which the component scrolls in its frame, and refuses a maxHeight that is not a number of pixels', async () => {
    const { componentId } = await harness.aComponent(ROOT('.content { height: 2000px; }'));
    const { context, page } = await harness.open(mountPage(harness, { componentId, isolation: 'iframe', options: 'autoHeight: true, maxHeight: 300' }));
    const refused = await harness.open(mountPage(harness, { componentId, isolation: 'iframe', options: 'maxHeight: -1' }));
    const shadow = await harness.open(mountPage(harness, { componentId, isolation: 'shadow', options: 'maxHeight: 300' }));
    try {
      expect(await outcomeOf(page)).toBe('ready');
      expect(await slotHeight(page)).toBe(300);
      expect(await outcomeOf(shadow.page)).toBe('ready');
      expect(await slotHeight(shadow.page)).toBe(300);
      await page.locator('#slot iframe').hover();
      await page.mouse.wheel(0, 500);
      await inComponentWindow(page, 'iframe', () => new Promise((resolve) => (scrollY > 0 ? resolve(true) : addEventListener('scroll', resolve, { once: true }))));
      expect(await outcomeOf(refused.page)).toEqual({ code: 'INVALID_OPTIONS', detail: expect.stringMatching(/maxHeight must be a positive number of CSS pixels/) });
    } finally {
      await context.close();
      await refused.context.close();
      await shadow.context.close();
    }
  });

  // Each row has every argument: jest takes a test function with more parameters than its row for one waiting for `done`.
  const cases: [name: string, html: string, height: number, data: Record<string, unknown> | null, after: number | null][] = [
    // 120 content + 2 × 16 padding + 2 × 8 body margin; then a 400 px image.
    ['min-height: 100vh with padding, then a late image', ROOT('.root { min-height: 100vh; padding: 16px; }', ON_DATA), 168, { image: 'tall.svg' }, 568],
    // Grows more than the viewport: back to its content's height.
    ['min-height: 200vh with padding', ROOT('.root { min-height: 200vh; padding: 16px; }'), 168, null, null],
    // 120 overflowing a root of no height in a frame of none + 2 × 8 body margin.
    ['height: 100vh', ROOT('.root { height: 100vh; }'), 136, null, null],
    // 120 + 2 × 16 + 2 × 12 body padding + 2 × 8 body margin.
    ['min-height: 100% with padding in html and body of height: 100%', ROOT('html, body { height: 100%; } body { padding: 12px; } .root { min-height: 100%; padding: 16px; }'), 192, null, null],
    ['2000 px shrinking to 200 px, with body padding', ROOT('body { padding: 10px; } .content { height: 2000px; }', ON_DATA), 2036, { height: 200 }, 236],
  ];
  it.each(cases)('%s: settles at its content height within 3 size changes', async (_name, html, height, data, after) => {
    harness.asset('/tall.svg', { body: '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="400"></svg>', contentType: 'image/svg+xml' });
    const { componentId } = await harness.aComponent(html);
    const { context, page, consoleErrors } = await harness.open(mountPage(harness, { componentId, isolation: 'iframe', options: 'autoHeight: true', before: RECORD_FRAME_HEIGHTS }));
    try {
      expect(await outcomeOf(page)).toBe('ready');
      const first = await settledHeights(page);
      expect({ heights: first.length <= 3, last: first.at(-1) }).toEqual({ heights: true, last: height });
      expect(await slotHeight(page)).toBe(height);
      if (data && after) {
        await page.evaluate((d) => (window as unknown as { handle: { update(d: unknown): void } }).handle.update(d), data);
        await page.waitForFunction((n) => (window as unknown as { frameHeights: number[] }).frameHeights.length > n, first.length);
        const next = (await settledHeights(page)).slice(first.length);
        expect({ heights: next.length <= 3, last: next.at(-1) }).toEqual({ heights: true, last: after });
        expect(await slotHeight(page)).toBe(after);
      }
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
