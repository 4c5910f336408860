/// <reference lib="dom" />
import { startHostHarness, type HostHarness } from './support/host-harness.js';

/*
 * The delivery API's demo host page (/examples/host) in Chromium: it renders a
 * released component through the SDK it serves, sends the data box to the
 * component and logs what the component sends back.
 */

let host: HostHarness;

beforeAll(async () => {
  host = await startHostHarness();
}, 60_000);

afterAll(async () => {
  await host?.close();
});

const ECHO = `<!doctype html><html><body><p id="greeting">waiting</p><button id="ping">Ping</button>
<script>{ const root = window.cpRoot, send = window.cpSend;
  window.cpReceive = (data) => { root.getElementById('greeting').textContent = 'Hello, ' + data.name; };
  root.getElementById('ping').addEventListener('click', () => send('ping', { at: 'demo' })); }</script></body></html>`;

it.each(['iframe', 'shadow'] as const)('renders the component, sends the data box and logs its actions (%s)', async (isolation) => {
  const { componentId } = await host.aComponent(ECHO, 'prod');
  const { page, consoleErrors } = await host.open(`${host.delivery.url}/examples/host?component=${componentId}&env=prod&isolation=${isolation}`);
  // The whole page in view: after a scroll, Chromium can still hit-test a cross-origin frame where it was, and give it clicks meant for the page.
  await page.setViewportSize({ width: 1280, height: 1600 });
  await page.locator('#log li', { hasText: 'cp-load' }).waitFor();
  const component = isolation === 'iframe' ? page.frameLocator('cp-component iframe') : page.locator('cp-component');

  await page.locator('#data').fill('{"name": "Ada"}');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(component.locator('#greeting').textContent()).resolves.toBe('Hello, Ada');

  await component.locator('#ping').click();
  await page.locator('#log li', { hasText: 'cp-action' }).waitFor();
  expect(await page.locator('#log li', { hasText: 'cp-action' }).textContent()).toContain('{"action":"ping","payload":{"at":"demo"}}');

  await page.locator('#data').fill('{not json');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(page.locator('#data-status').textContent()).resolves.toContain('not JSON');
  expect(await component.locator('#greeting').textContent()).toBe('Hello, Ada');

  // The key and attributes go to the element, not to the page's URL; the variant shown is named.
  await expect(page.locator('#shown').textContent()).resolves.toMatch(/^v1 \(/);
  await page.locator('#user-key').fill('account-42');
  await page.locator('#user-attributes').fill('{"country": "DE"}');
  await page.getByRole('button', { name: 'Apply' }).click();
  expect(await page.locator('cp-component').evaluate((element) => [element.getAttribute('key'), element.getAttribute('attributes')])).toEqual(['account-42', '{"country": "DE"}']);
  await page.locator('#log li', { hasText: 'cp-load' }).nth(1).waitFor();
  expect(page.url()).not.toContain('account-42');
  await page.locator('#user-attributes').fill('{country}');
  await page.locator('#user-key').press('Enter');
  await expect(page.locator('#user-status').textContent()).resolves.toContain('not JSON');
  // The page's own requests may include a favicon, which the API does not serve (a 404 in the console).
  expect(consoleErrors.filter((error) => !error.startsWith('Failed to load resource'))).toEqual([]);
});

it('shows the API problem in the log for a component that is not released there', async () => {
  const { componentId } = await host.aComponent(ECHO);
  const { page } = await host.open(`${host.delivery.url}/examples/host?component=${componentId}&env=prod`);
  await page.locator('#log li', { hasText: 'cp-error' }).waitFor();
  expect(await page.locator('#log li', { hasText: 'cp-error' }).first().textContent()).toContain('"resource":"Release"');
});
