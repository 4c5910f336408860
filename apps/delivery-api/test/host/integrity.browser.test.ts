/// <reference lib="dom" />
import { createHash } from 'node:crypto';
import type { Page } from '@cp/browser-testing';
import { startHostHarness, type HostHarness } from './support/host-harness.js';
import { inComponentWindow, ISOLATIONS, mountPage, outcomeOf } from './support/mount-page.js';

/*
 * Integrity is checked before anything is inserted: a mismatch of the HTML or
 * of a linked file that declares `integrity` leaves the slot empty and rejects
 * `ready` with INTEGRITY_MISMATCH. The loader's integrity is computed by the
 * server from the uploaded bytes, so the HTML case alters the /consume answer
 * in flight (Playwright's page.route): the one thing mocked here, standing for
 * a tampering proxy or CDN.
 */

let harness: HostHarness;
beforeAll(async () => {
  harness = await startHostHarness();
}, 120_000);
afterAll(() => harness?.close());

const sri = (body: string): string => `sha384-${createHash('sha384').update(body).digest('base64')}`;
const js = (body: string) => ({ body, contentType: 'text/javascript' });
let files = 0;

/** A component linking one script served by the host harness, declaring `integrity` (of `declared` content). */
async function aComponentLinking(served: string, declared: string) {
  const url = harness.asset(`/integrity/file-${++files}.js`, js(served));
  return harness.aComponent(`<!doctype html><p id="content">Linked</p>
<script src="${url}" integrity="${sri(declared)}" crossorigin="anonymous"></script>`);
}

const slotChildren = (page: Page): Promise<number> => page.evaluate(() => document.getElementById('slot')!.childNodes.length);

describe.each(ISOLATIONS)('%s isolation', (isolation) => {
  it('renders a component whose HTML and linked script match', async () => {
    const body = 'window.linkedRan = (window.linkedRan || 0) + 1;';
    const { componentId } = await aComponentLinking(body, body);
    const { context, page, consoleErrors } = await harness.open(mountPage(harness, { componentId, isolation }));
    try {
      expect(await outcomeOf(page)).toBe('ready');
      expect(await slotChildren(page)).toBe(1);
      expect(await inComponentWindow(page, isolation, () => (window as unknown as { linkedRan?: number }).linkedRan)).toBe(1);
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('renders nothing when the HTML was altered on its way (the /consume answer is rewritten in flight)', async () => {
    const { componentId } = await harness.aComponent('<!doctype html><p id="content">Original</p>');
    const context = await harness.browser.newContext();
    try {
      await context.route('**/consume?**', async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { item: { consume_variant: { loader: { HTML: string } }[] } };
        body.item.consume_variant[0]!.loader.HTML = '<!doctype html><p id="content">Tampered</p><script>window.tamperedRan = true</script>';
        await route.fulfill({ response, json: body });
      });
      const page = await context.newPage();
      await page.goto(mountPage(harness, { componentId, isolation }));
      const outcome = await outcomeOf(page);
      expect(outcome).toEqual({ code: 'INTEGRITY_MISMATCH', detail: expect.stringMatching(/component HTML does not match its integrity/) });
      expect(await slotChildren(page)).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { tamperedRan?: boolean }).tamperedRan)).toBeUndefined();
    } finally {
      await context.close();
    }
  });

  it('renders nothing when a linked script does not match its integrity attribute, naming the file', async () => {
    const { componentId } = await aComponentLinking('window.linkedRan = true;', 'window.somethingElse = true;');
    const { context, page } = await harness.open(mountPage(harness, { componentId, isolation }));
    try {
      const outcome = await outcomeOf(page);
      expect(outcome).toEqual({ code: 'INTEGRITY_MISMATCH', detail: expect.stringContaining(`${harness.hostOrigin}/integrity/file-${files}.js`) });
      expect(await slotChildren(page)).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { linkedRan?: boolean }).linkedRan)).toBeUndefined();
    } finally {
      await context.close();
    }
  });
});

it('reports a linked stylesheet with integrity that cannot be fetched with CORS as RESOURCE_FAILED', async () => {
  const css = 'p { color: red }';
  // The host server by its other name: another origin than the host page's.
  const url = harness.asset('/integrity/no-cors.css', { body: css, contentType: 'text/css', cors: false }).replace('//localhost:', '//127.0.0.1:');
  const { componentId } = await harness.aComponent(`<link rel="stylesheet" href="${url}" integrity="${sri(css)}" crossorigin="anonymous"><p>x</p>`);
  const { context, page } = await harness.open(mountPage(harness, { componentId, isolation: 'shadow' }));
  try {
    expect(await outcomeOf(page)).toEqual({ code: 'RESOURCE_FAILED', detail: expect.stringContaining(url) });
    expect(await slotChildren(page)).toBe(0);
  } finally {
    await context.close();
  }
});
