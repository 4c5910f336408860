import { launchChromium, type Browser } from '@cp/browser-testing';
import { publishVariant, type Component, type User } from '@cp/domain';
import { aComponentWithVariants } from '../support/builders.js';
import { signInInChromium } from '../support/chromium-sign-in.js';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';

/*
 * "In AI assistants" on the component page, in headless Chromium: an owner's save refused for bad
 * JSON shows the message by the form with what was typed; the fixed save names the tool assistants
 * list; "Stop offering" ends it; the audit trail has both lines.
 */

let stack: DashboardStack;
let browser: Browser;
let owner: User;
let component: Component;

beforeAll(async () => {
  stack = await startDashboardStack();
  browser = await launchChromium();
  owner = await anAccount(stack.auth);
  const { component: created, variants } = await aComponentWithVariants(stack.domain, owner, 2, { name: 'Price tag' });
  component = created;
  await publishVariant({ actor: { userId: owner.id }, componentId: component.id, environment: 'staging', variantId: variants[1]!.id }, stack.domain);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

it('an owner offers the component as an app, sees a refusal next to the form, then stops offering it', async () => {
  const page = await signInInChromium(browser, stack.url, owner, `/component/${component.id}`);
  const state = page.getByTestId('app-state');
  expect(await state.textContent()).toMatch(/^Not offered/);

  await page.getByLabel('Environment').selectOption('staging');
  await page.getByLabel('Title').fill('Price tag');
  await page.getByLabel('Description for the model').fill('Shows a price the user asks about.');
  await page.getByLabel('Input schema (JSON, optional)').fill('{"type": "object",');
  await page.getByLabel('Actions that call tools (optional)').fill('buy = publish_component');
  const refused = page.waitForResponse((response) => response.url().endsWith(`/component/${component.id}/app`));
  await page.getByRole('button', { name: 'Offer as an app' }).click();
  expect((await refused).status()).toBe(400);
  expect(await page.locator('#app-error').textContent()).toMatch(/^inputSchema: is not valid JSON .*leave the field empty to accept any arguments\.$/);
  expect(await page.getByLabel('Input schema (JSON, optional)').inputValue()).toBe('{"type": "object",');
  expect(await page.getByLabel('Title').inputValue()).toBe('Price tag');

  await page.getByLabel('Input schema (JSON, optional)').fill('{"type": "object", "properties": {"price": {"type": "string"}}}');
  await page.getByRole('button', { name: 'Offer as an app' }).click();
  await page.waitForURL(`${stack.url}/component/${component.id}?notice=app-saved`);
  expect(await state.textContent()).toBe("Offered as “Price tag”: members' assistants list the tool show_price_tag_v2, which shows v2 (the release of staging).");
  expect(await page.getByLabel('Actions that call tools (optional)').inputValue()).toBe('buy = publish_component');

  await page.getByRole('button', { name: 'Stop offering in AI assistants' }).click();
  await page.waitForURL(`${stack.url}/component/${component.id}?notice=app-removed`);
  expect(await state.textContent()).toMatch(/^Not offered/);

  await page.goto(`${stack.url}/orgs/${owner.defaultOrganizationId}/audit`);
  expect(await page.getByRole('cell', { name: 'No longer offered in AI assistants' }).count()).toBe(1);
  expect(await page.getByRole('cell', { name: 'now an app · Price tag · shows staging · with an input schema · 1 action calls a tool' }).count()).toBe(1);
});
