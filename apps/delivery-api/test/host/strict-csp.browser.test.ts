import { createHash } from 'node:crypto';
import { startHostHarness, type HostHarness } from './support/host-harness.js';
import { openProbed, waitForEvents } from './support/sdk-probes.js';

/*
 * A host page under a strict, nonce-based Content-Security-Policy (docs/host-sdk.md,
 * "Content-Security-Policy"): components render and their inline and linked scripts run, in
 * iframe isolation with the policy's connect-src and frame-src naming only the delivery API,
 * and in shadow isolation with the page's nonce given to the SDK. A srcdoc frame, which
 * inherits the page's policy, runs nothing under it.
 */

let harness: HostHarness;
const NONCE = 'cpTestNonce0123456789';
let componentId: string;
let variantId: string;

const policy = (connect: string) =>
  `default-src 'none'; script-src 'nonce-${NONCE}' 'strict-dynamic'; connect-src ${connect}; frame-src ${harness.delivery.url}; style-src 'unsafe-inline'`;

/** A host page: the SDK by a nonce'd script tag, then `body`, under `csp`. */
const strictPage = (body: string, csp: string) =>
  harness.page(
    `<!doctype html><html><head><meta charset="utf-8"><title>Strict host</title>
<script type="module" nonce="${NONCE}" src="${harness.delivery.url}/host/v1.js"></script></head><body>${body}</body></html>`,
    { 'Content-Security-Policy': csp },
  );

beforeAll(async () => {
  harness = await startHostHarness();
  // Served by the host page's server, an origin the host's connect-src does not name; checked by SRI.
  const linked = `cpRoot.getElementById('linked').textContent = 'linked ran';`;
  const url = harness.asset('/csp/linked.js', { body: linked, contentType: 'text/javascript' });
  const integrity = `sha256-${createHash('sha256').update(linked).digest('base64')}`;
  ({ componentId, variantId } = await harness.aComponent(
    `<!doctype html><html><head><meta charset="utf-8"><style>p{margin:0}</style></head><body>
<p id="inline">not run</p><p id="linked">not run</p>
<script>cpRoot.getElementById('inline').textContent = 'inline ran';</script>
<script src="${url}" integrity="${integrity}" crossorigin="anonymous"></script></body></html>`,
    'prod',
  ));
}, 120_000);

afterAll(async () => {
  await harness?.close();
});

it('iframe isolation renders and runs inline and linked scripts; a srcdoc frame under the same policy runs nothing', async () => {
  const csp = policy(harness.delivery.url);
  const { page, consoleErrors } = await openProbed(
    harness,
    strictPage(
      `<cp-component id="c" component-id="${componentId}" env="prod"></cp-component>
<iframe id="old" sandbox="allow-scripts" srcdoc="<p>old</p><script>window.ran = true;</script>"></iframe>`,
      csp,
    ),
  );
  const [loaded] = await waitForEvents(page, 'cp-load');
  expect(loaded!.detail.variantId).toBe(variantId);
  const frame = page.frameLocator('#c iframe');
  expect(await frame.locator('#inline').textContent()).toBe('inline ran');
  await frame.locator('#linked', { hasText: 'linked ran' }).waitFor();

  // The srcdoc document inherits the host page's policy: its inline script is refused.
  const old = await (await page.locator('#old').elementHandle())?.contentFrame();
  await old!.waitForLoadState('load');
  expect(await old!.evaluate(() => (window as { ran?: boolean }).ran)).toBeUndefined();
  expect(consoleErrors.filter((error) => /Content Security Policy/.test(error)).length).toBeGreaterThan(0);
  // Nothing of the SDK's was refused: the only violation is the srcdoc frame's.
  expect(consoleErrors.filter((error) => !/^Executing inline script violates/.test(error))).toEqual([]);
});

it.each([
  ["'strict-dynamic' (which trusts what the SDK inserts)", " 'strict-dynamic'"],
  ['nonces alone (only a nonce lets a script run)', ''],
])('shadow isolation under %s: the scripts run with the nonce given to the element, read through its nonce property', async (_case, dynamic) => {
  // Shadow isolation loads linked files into the page itself: their origin goes in connect-src (the SDK checks their integrity).
  const csp = policy(`${harness.delivery.url} ${harness.hostOrigin}`).replace(" 'strict-dynamic'", dynamic);
  const { page, consoleErrors } = await openProbed(
    harness,
    strictPage(
      `<cp-component id="s" isolation="shadow" nonce="${NONCE}" component-id="${componentId}" env="prod"></cp-component>
<cp-component id="bare" isolation="shadow" component-id="${componentId}" env="prod"></cp-component>`,
      csp,
    ),
  );
  await waitForEvents(page, 'cp-load', 2);
  // The browser hides the attribute's value: the element reads the IDL property.
  expect(await page.locator('#s').evaluate((element) => [element.getAttribute('nonce'), (element as HTMLElement).nonce])).toEqual(['', NONCE]);
  const texts = (id: string) => page.locator(`#${id} p`).allTextContents();
  await page.locator('#s p#linked', { hasText: 'linked ran' }).waitFor();
  expect(await texts('s')).toEqual(['inline ran', 'linked ran']);
  if (dynamic) {
    expect(consoleErrors).toEqual([]);
  } else {
    // Without the nonce, such a policy refuses every script the SDK inserts.
    expect(await texts('bare')).toEqual(['not run', 'not run']);
    expect(consoleErrors.length).toBeGreaterThan(0);
    expect(consoleErrors.every((error) => /Content Security Policy/.test(error))).toBe(true);
  }
});
