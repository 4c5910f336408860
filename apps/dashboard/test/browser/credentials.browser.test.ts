import { mkdir } from 'node:fs/promises';
import { launchChromium, type Browser } from '@cp/browser-testing';
import type { User } from '@cp/domain';
import { signInInChromium } from '../support/chromium-sign-in.js';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';

/*
 * API tokens and CI trust policies in headless Chromium (the suite's one Chromium), through the real
 * auth server: the owner creates a token and sees its secret once, revokes it after the confirmation,
 * then creates a CI trust policy from organization settings next to its workflow. Screenshots land in
 * test-artifacts/.
 */

const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url).pathname;

let stack: DashboardStack;
let browser: Browser;
let owner: User;

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  stack = await startDashboardStack();
  browser = await launchChromium();
  owner = await anAccount(stack.auth);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

it('create a token, see its secret once, revoke it; create a CI trust policy', async () => {
  const org = owner.defaultOrganizationId;
  const page = await signInInChromium(browser, stack.url, owner, `/orgs/${org}/components`);
  // A step that cannot happen fails with its own locator, well before the test's timeout.
  page.setDefaultTimeout(10_000);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API tokens' }).click();
  await page.waitForURL(`${stack.url}/orgs/${org}/api-tokens`);

  await page.getByLabel('Name', { exact: true }).fill('nightly');
  expect(await page.getByLabel('Expires after (days)').inputValue()).toBe('30');
  await page.getByRole('radio', { name: /^Write/ }).check();
  await page.getByRole('checkbox', { name: 'staging', exact: true }).check();
  await page.getByRole('button', { name: 'Create token' }).click();
  const secret = await page.getByLabel('API token', { exact: true }).inputValue();
  expect(secret).toMatch(/^cpt_[A-Za-z0-9_-]{49}$/);
  await page.screenshot({ path: `${ARTIFACTS}api-token-created.png`, fullPage: true });

  // Shown once: the list names it by its prefix, and the secret is nowhere on the page any more.
  await page.goto(`${stack.url}/orgs/${org}/api-tokens`);
  const row = page.getByTestId('api-token').filter({ hasText: 'nightly' });
  expect(await row.textContent()).toContain(`${secret.slice(0, 8)}`);
  expect(await page.content()).not.toContain(secret);

  await row.getByRole('link', { name: 'Revoke nightly…' }).click();
  await page.getByRole('button', { name: 'Revoke this token' }).click();
  await page.waitForURL(`${stack.url}/orgs/${org}/api-tokens?notice=api-token-revoked`);
  expect(await page.getByRole('status').textContent()).toContain('API token revoked');
  expect(await page.getByTestId('api-token').filter({ hasText: 'nightly' }).textContent()).toContain('revoked');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('link', { name: 'CI trust policies' }).click();
  await page.waitForURL(`${stack.url}/orgs/${org}/settings/ci-policies`);
  expect(await page.getByTestId('workflow-snippet').textContent()).toContain('id-token: write');
  await page.getByLabel('Name', { exact: true }).fill('web-release');
  await page.getByLabel('Owner id', { exact: true }).fill('1342004');
  await page.getByLabel('Repository id', { exact: true }).fill('600213');
  await page.getByLabel('Repository name', { exact: true }).fill('acme/web');
  await page.getByLabel('Ref patterns (optional, one per line)').fill('refs/tags/v*');
  await page.getByRole('radio', { name: /^Write/ }).check();
  await page.getByRole('checkbox', { name: 'staging', exact: true }).check();
  await page.getByRole('button', { name: 'Create policy' }).click();
  await page.waitForURL(`${stack.url}/orgs/${org}/settings/ci-policies?provider=github&notice=ci-policy-created`);
  expect(await page.getByTestId('ci-policy').textContent()).toContain('acme/web');
  await page.screenshot({ path: `${ARTIFACTS}ci-policy-created.png`, fullPage: true });
});
