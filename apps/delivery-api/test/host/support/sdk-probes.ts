// The callbacks given to page.evaluate and the init script run in the browser: they are typed against the DOM.
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import type { BrowserContext, Page } from '@cp/browser-testing';
import type * as Sdk from '@component-platform/host';
import type { HostHarness } from './host-harness.js';

/*
 * What the SDK shell's browser tests watch in a page: the cp-* events (they
 * bubble to the document), every EventSource and pending timer the page makes
 * (wrapped before any script runs), and the event listeners left on long-lived
 * objects (read through the DevTools protocol, which also sees `once` and
 * `signal` listeners correctly).
 */

/** The SDK module as a page imports it. */
export type SdkModule = typeof Sdk;

export interface SdkEvent {
  readonly type: 'cp-load' | 'cp-error' | 'cp-action';
  readonly target: string;
  readonly detail: {
    variantId?: string;
    variantName?: string;
    problem?: { status: number; code: string; resource?: string; detail: string };
    retrying?: boolean;
    action?: string;
    payload?: unknown;
  };
}

declare global {
  interface Window {
    sdkEvents: SdkEvent[];
    sdkSources: EventSource[];
    /** The event id of every `change` event the page's streams received. */
    sdkChangeIds: string[];
    sdkTimers: Set<number>;
  }
}

function probes(): void {
  window.sdkEvents = [];
  for (const type of ['cp-load', 'cp-error', 'cp-action']) {
    document.addEventListener(type, (event) => {
      const target = event.target as HTMLElement;
      window.sdkEvents.push({ type, target: target.id || target.tagName.toLowerCase(), detail: (event as CustomEvent).detail } as SdkEvent);
    });
  }
  window.sdkSources = [];
  window.sdkChangeIds = [];
  if (window.EventSource) {
    const Native = window.EventSource;
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        window.sdkSources.push(this);
        this.addEventListener('change', (event) => window.sdkChangeIds.push(event.lastEventId));
      }
    };
  }
  window.sdkTimers = new Set();
  const { setTimeout: set, clearTimeout: clear } = window;
  window.setTimeout = ((handler: (...x: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const id: number = set(
      (...a: unknown[]) => {
        window.sdkTimers.delete(id);
        if (typeof handler === 'function') handler(...a);
      },
      ms,
      ...args,
    );
    window.sdkTimers.add(id);
    return id;
  }) as typeof setTimeout;
  window.clearTimeout = ((id?: number) => {
    if (id !== undefined) window.sdkTimers.delete(id);
    clear(id);
  }) as typeof clearTimeout;
}

/** A fresh context with the probes installed before the page's scripts, then `setup` (routes), then the page. */
export async function openProbed(
  harness: HostHarness,
  url: string,
  setup: (page: Page) => Promise<unknown> = async () => undefined,
): Promise<{ context: BrowserContext; page: Page; consoleErrors: string[] }> {
  const context = await harness.browser.newContext();
  await context.addInitScript(probes);
  const page = await context.newPage();
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(String(error)));
  page.on('response', (response) => {
    if (response.status() >= 400) consoleErrors.push(`${response.url()} ${response.status()}`);
  });
  // The host page server has no icon; the browser's request for it is not the SDK's.
  await page.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }));
  await setup(page);
  await page.goto(url);
  await page.waitForFunction(() => customElements.get('cp-component') !== undefined);
  return { context, page, consoleErrors };
}

export const events = (page: Page, type?: SdkEvent['type']): Promise<SdkEvent[]> =>
  page.evaluate((t) => window.sdkEvents.filter((event) => !t || event.type === t), type);

/** Waits until `count` events of `type` were dispatched (optionally on the element with that id). */
export async function waitForEvents(page: Page, type: SdkEvent['type'], count = 1, target?: string): Promise<SdkEvent[]> {
  await page.waitForFunction(
    ([t, n, id]) => window.sdkEvents.filter((event) => event.type === t && (!id || event.target === id)).length >= n,
    [type, count, target] as const,
    { timeout: 20_000 },
  );
  return (await events(page, type)).filter((event) => !target || event.target === target);
}

/** Event listeners registered on the object `expression` evaluates to (e.g. `window`, `document`). */
export async function listenersOn(page: Page, expression: string): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { result } = await cdp.send('Runtime.evaluate', { expression });
    const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId!, depth: -1, pierce: true });
    return listeners.map((listener) => listener.type).sort();
  } finally {
    await cdp.detach();
  }
}

/** Frames (besides the page) and EventSources still open, pending timers: what an unmount must leave at zero. */
/** The iframes of the page but the warm one(s) the SDK keeps for later mounts (render/warm-frames.ts). */
export const componentFrames = async (page: Page): Promise<number> => (await page.locator('iframe').count()) - (await page.locator('[data-cp-warm] iframe').count());

export const leftovers = async (page: Page) => ({
  frames: await componentFrames(page),
  openSources: await page.evaluate(() => window.sdkSources.filter((source) => source.readyState !== EventSource.CLOSED).length),
  timers: await page.evaluate(() => window.sdkTimers.size),
});

/** A component page whose body says `text`; `script` runs in it. */
export const componentHtml = (text: string, script = ''): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${text}</title></head><body><p id="text">${text}</p>${script ? `<script>${script}</script>` : ''}</body></html>`;

/** The text of every frame's `#text` (the components rendered in frames). */
export const frameTexts = async (page: Page): Promise<string[]> => {
  const texts: string[] = [];
  for (const frame of page.frames().slice(1)) {
    // Detached meanwhile, or a warm frame (no component in it yet).
    const warm = frame.frameElement().then((element) => element.evaluate((e) => (e as Element).closest('[data-cp-warm]') !== null), () => true);
    if (await warm) continue;
    const text = await frame.locator('#text').textContent({ timeout: 2000 }).catch(() => null);
    if (text !== null) texts.push(text);
  }
  return texts.sort();
};

/** Polls a condition of the test process (what the browser reported to it) until it holds. */
export async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Condition not met within ${timeoutMs} ms: ${check.toString()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
