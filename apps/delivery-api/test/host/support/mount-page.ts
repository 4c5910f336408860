/// <reference lib="dom" />
import { isDeepStrictEqual } from 'node:util';
import type { Page } from '@cp/browser-testing';
import type { HostHarness } from './host-harness.js';

/* A host page that mounts one component through the SDK and records what the render tests look at. */

export type Isolation = 'iframe' | 'shadow';
export const ISOLATIONS: readonly Isolation[] = ['iframe', 'shadow'];

export interface MountPage {
  readonly componentId: string;
  readonly isolation: Isolation;
  /** More `mount` options, as JavaScript source (`data: { a: 1 }, autoHeight: true`). */
  readonly options?: string;
  /** Host markup before the slot (host styles, host content). */
  readonly before?: string;
}

/** The harness's host page, with a favicon to find: the browser asks for one, and its 404 would be a console error. */
export function hostPage(harness: HostHarness, body: string): string {
  harness.asset('/favicon.ico', { body: '', contentType: 'image/x-icon' });
  return harness.hostPage(body);
}

/**
 * The page mounts into `#slot` and keeps `window.handle`, `window.actions`
 * (each onAction), `window.outcome` ('ready' or the rejection's problem) and
 * `window.heightAtReady` (the slot's height when `ready` resolved).
 */
export function mountPage(harness: HostHarness, { componentId, isolation, options = '', before = '' }: MountPage): string {
  return hostPage(harness, `${before}<div id="slot"></div>
<script type="module">
import { mount } from '${harness.delivery.url}/host/v1.js';
const slot = document.getElementById('slot');
window.actions = [];
window.handle = mount(slot, {
  componentId: '${componentId}', preview: true, isolation: '${isolation}',
  onAction: (action, payload) => window.actions.push({ action, payload }),
  ${options}
});
window.outcome = window.handle.ready.then(
  () => { window.heightAtReady = slot.getBoundingClientRect().height; return 'ready'; },
  (error) => ({ code: error.problem && error.problem.code, detail: error.problem && error.problem.detail }),
);
</script>`);
}

export type Outcome = 'ready' | { code: string; detail: string };

/** What `ready` settled with. */
export const outcomeOf = (page: Page): Promise<Outcome> =>
  page.waitForFunction(() => (window as unknown as { outcome?: Promise<Outcome> }).outcome).then(() =>
    page.evaluate(() => (window as unknown as { outcome: Promise<Outcome> }).outcome),
  );

/** Where the component's elements are: inside the frame, or in the (open) shadow root, which locators pierce. */
export const component = (page: Page, isolation: Isolation): ReturnType<Page['frameLocator']> | ReturnType<Page['locator']> =>
  isolation === 'iframe' ? page.frameLocator('#slot iframe') : page.locator('#slot');

/** Runs `fn` in the component's window: the frame's, or the host page's for shadow components. */
export async function inComponentWindow<T>(page: Page, isolation: Isolation, fn: () => T): Promise<T> {
  if (isolation === 'shadow') return page.evaluate(fn);
  const frame = await (await page.waitForSelector('#slot iframe', { state: 'attached' })).contentFrame();
  if (!frame) throw new Error('the slot holds no frame');
  return frame.evaluate(fn);
}

/** Polls `condition` in the component's window until it holds (Playwright's timeout otherwise). */
export async function waitInComponent(page: Page, isolation: Isolation, condition: () => unknown): Promise<void> {
  if (isolation === 'shadow') return void (await page.waitForFunction(condition));
  const frame = await (await page.waitForSelector('#slot iframe', { state: 'attached' })).contentFrame();
  if (!frame) throw new Error('the slot holds no frame');
  await frame.waitForFunction(condition);
}

/** Reads until the value equals `expected` or 5 s pass; returns the last value read (for the test's own `expect`). */
export async function settled<T>(read: () => Promise<T>, expected: T): Promise<T> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const value = await read();
    if (isDeepStrictEqual(value, expected) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
