/// <reference lib="dom" />
import type { Page } from '@cp/browser-testing';
import { startHostHarness, type HostHarness } from './support/host-harness.js';
import { component, ISOLATIONS, mountPage, outcomeOf, type Isolation } from './support/mount-page.js';

/*
 * Isolation: styles leak in neither direction in either mode; the frame is a
 * sandboxed opaque origin (no host DOM, cookies or storage) in standards mode;
 * unmount leaves the slot empty.
 */

let harness: HostHarness;
beforeAll(async () => {
  harness = await startHostHarness();
}, 120_000);
afterAll(() => harness?.close());

const HOST_STYLES = `<style>
  body { color: rgb(255, 0, 0); font-family: monospace; }
  p { background-color: rgb(255, 255, 0); }
  .linked { border-top: 7px solid rgb(255, 0, 0); }
</style><p id="host-p">Host text</p><span class="linked" id="host-linked">host</span>`;

const styleOf = (page: Page, isolation: Isolation, selector: string, property: string): Promise<string> =>
  component(page, isolation)
    .locator(selector)
    .evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);
const hostStyleOf = (page: Page, selector: string, property: string): Promise<string> =>
  page.locator(selector).evaluate((element, name) => getComputedStyle(element).getPropertyValue(name), property);

describe.each(ISOLATIONS)('%s isolation', (isolation) => {
  it('keeps host styles out of the component and the component styles (inline and linked) out of the host', async () => {
    const css = harness.asset('/isolation/component.css', { body: '.linked { text-decoration-line: underline; }', contentType: 'text/css' });
    const { componentId } = await harness.aComponent(`<!doctype html><html><head>
<style>p { color: rgb(0, 0, 255); } body { font-family: serif; }</style>
<link rel="stylesheet" href="${css}"></head>
<body><p id="c-p">Component text</p><em id="c-em">plain</em><span class="linked" id="c-linked">linked</span></body></html>`);
    const { context, page, consoleErrors } = await harness.open(mountPage(harness, { componentId, isolation, before: HOST_STYLES }));
    try {
      expect(await outcomeOf(page)).toBe('ready');
      // The component's own rules apply inside it.
      expect(await styleOf(page, isolation, '#c-p', 'color')).toBe('rgb(0, 0, 255)');
      expect(await styleOf(page, isolation, '#c-linked', 'text-decoration-line')).toBe('underline');
      // Host rules neither match nor are inherited inside.
      expect(await styleOf(page, isolation, '#c-p', 'background-color')).toBe('rgba(0, 0, 0, 0)');
      expect(await styleOf(page, isolation, '#c-em', 'color')).toBe('rgb(0, 0, 0)');
      expect(await styleOf(page, isolation, '#c-em', 'font-family')).not.toBe('monospace');
      expect(await styleOf(page, isolation, '#c-linked', 'border-top-width')).toBe('0px');
      // The component's rules do not reach the host.
      expect(await hostStyleOf(page, '#host-p', 'color')).toBe('rgb(255, 0, 0)');
      expect(await hostStyleOf(page, '#host-linked', 'text-decoration-line')).toBe('none');
      expect(consoleErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it('unmount removes the component from the slot', async () => {
    const { componentId } = await harness.aComponent('<p id="here">here</p>');
    const { context, page } = await harness.open(mountPage(harness, { componentId, isolation }));
    try {
      expect(await outcomeOf(page)).toBe('ready');
      expect(await page.evaluate(() => document.getElementById('slot')!.childNodes.length)).toBe(1);
      await page.evaluate(() => (window as unknown as { handle: { unmount(): void } }).handle.unmount());
      expect(await page.evaluate(() => document.getElementById('slot')!.childNodes.length)).toBe(0);
    } finally {
      await context.close();
    }
  });
});

describe('the iframe sandbox', () => {
  const PROBE = `<!doctype html><html><head><meta charset="utf-8"></head><body><pre id="probe"></pre><script>
const probe = (name, read) => { let result; try { result = 'read: ' + JSON.stringify(read()); } catch (error) { result = 'threw ' + error.name; } return name + ' ' + result; };
document.getElementById('probe').textContent = [
  probe('parent.document', () => parent.document.title),
  probe('top.localStorage', () => top.localStorage.getItem('host-secret')),
  probe('document.cookie', () => document.cookie),
  probe('localStorage', () => localStorage.getItem('host-secret')),
  probe('compatMode', () => document.compatMode),
  probe('origin', () => origin),
].join('\\n');
</script></body></html>`;

  it('runs the component in an opaque origin: no host DOM, cookies or storage; standards mode kept', async () => {
    const { componentId } = await harness.aComponent(PROBE);
    const secrets = `<script>document.cookie = 'host-secret=1'; localStorage.setItem('host-secret', '1');</script>`;
    const { context, page } = await harness.open(mountPage(harness, { componentId, isolation: 'iframe', before: secrets }));
    try {
      expect(await outcomeOf(page)).toBe('ready');
      expect(await page.evaluate(() => document.cookie)).toBe('host-secret=1');
      expect(await page.locator('#slot iframe').getAttribute('sandbox')).toBe('allow-scripts');
      expect((await component(page, 'iframe').locator('#probe').textContent())!.split('\n')).toEqual([
        'parent.document threw SecurityError',
        'top.localStorage threw SecurityError',
        'document.cookie threw SecurityError',
        'localStorage threw SecurityError',
        'compatMode read: "CSS1Compat"',
        'origin read: "null"',
      ]);
    } finally {
      await context.close();
    }
  });

  it('adds the host sandbox tokens, and refuses allow-same-origin with nothing inserted', async () => {
    const { componentId } = await harness.aComponent('<p>x</p>');
    const forms = await harness.open(mountPage(harness, { componentId, isolation: 'iframe', options: `sandbox: 'allow-forms allow-popups'` }));
    const sameOrigin = await harness.open(mountPage(harness, { componentId, isolation: 'iframe', options: `sandbox: 'allow-forms allow-same-origin'` }));
    try {
      expect(await outcomeOf(forms.page)).toBe('ready');
      expect(await forms.page.locator('#slot iframe').getAttribute('sandbox')).toBe('allow-scripts allow-forms allow-popups');
      expect(await outcomeOf(sameOrigin.page)).toEqual({ code: 'INVALID_OPTIONS', detail: expect.stringMatching(/allow-same-origin/) });
      expect(await sameOrigin.page.evaluate(() => document.getElementById('slot')!.childNodes.length)).toBe(0);
    } finally {
      await forms.context.close();
      await sameOrigin.context.close();
    }
  });
});

it('shadow: a closed root hides the component from the page, and cpRoot still gives the component its root', async () => {
  const { componentId } = await harness.aComponent(`<p id="inside">inside</p><script>(() => {
    const send = window.cpSend, root = window.cpRoot;
    send('found', root.getElementById('inside').textContent);
  })();</script>`);
  const { context, page } = await harness.open(mountPage(harness, { componentId, isolation: 'shadow', options: `shadowRootMode: 'closed'` }));
  try {
    expect(await outcomeOf(page)).toBe('ready');
    expect(await page.evaluate(() => document.getElementById('slot')!.firstElementChild!.shadowRoot)).toBeNull();
    expect(await page.locator('#inside').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { actions: unknown[] }).actions)).toEqual([{ action: 'found', payload: 'inside' }]);
  } finally {
    await context.close();
  }
});
