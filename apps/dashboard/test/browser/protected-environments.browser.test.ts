import { mkdir } from 'node:fs/promises';
import { launchChromium, type Browser, type Page } from '@cp/browser-testing';
import type { Component, User } from '@cp/domain';
import { aComponentWithVariants, aMembership } from '../support/builders.js';
import { signInInChromium } from '../support/chromium-sign-in.js';
import {
  anAccount,
  startDashboardStack,
  type DashboardStack,
} from '../support/dashboard-server.js';

/*
 * What a member sees of a protected environment, in headless Chromium: prod's Publish says it sends a
 * release request, publishing makes one, the owner approves it on the component page, and
 * staging still publishes. The owner gets links. Screenshots land in test-artifacts/.
 */

const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url).pathname;

let stack: DashboardStack;
let browser: Browser;
let owner: User;
let member: User;
let component: Component;

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  stack = await startDashboardStack();
  browser = await launchChromium();
  owner = await anAccount(stack.auth);
  member = await anAccount(stack.auth);
  await aMembership(stack.db, member, owner.defaultOrganizationId, 'member');
  ({ component } = await aComponentWithVariants(stack.domain, owner, 2));
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const signIn = (user: User, path: string): Promise<Page> => signInInChromium(browser, stack.url, user, path);

/** The text of the element that the first match's `aria-describedby` points to: its accessible description. */
async function descriptionOf(page: Page, selector: string): Promise<string | null> {
  const id = await page.locator(selector).first().getAttribute('aria-describedby');
  return id === null ? null : page.locator(`[id="${id}"]`).textContent();
}

it("a member: prod publishing sends a release request the owner approves, staging publishing works", async () => {
  const page = await signIn(member, `/component/${component.id}`);
  expect(await descriptionOf(page, 'tr:has(th:text-is("prod")) a.button')).toBe(
    'prod is protected: your publish sends a release request; an owner or admin of the organization approves it.',
  );
  await page.screenshot({ path: `${ARTIFACTS}protected-component-page.png`, fullPage: true });
  await page.getByRole('row', { name: /^prod/ }).getByRole('link', { name: 'Publish v2' }).click();
  await page.getByRole('button', { name: 'Publish prod to v2' }).click();
  await page.waitForURL(`${stack.url}/component/${component.id}?notice=requested`);
  expect(await page.getByText('Release request sent; waiting for an owner or admin').count()).toBe(1);
  expect(await page.getByRole('button', { name: 'Approve' }).isDisabled()).toBe(true);
  await page.screenshot({ path: `${ARTIFACTS}protected-confirmation.png`, fullPage: true });

  await page.goto(`${stack.url}/component/${component.id}`);
  await page
    .getByRole('row', { name: /^staging/ })
    .getByRole('link', { name: 'Publish v2' })
    .click();
  await page.getByRole('button', { name: 'Publish staging to v2' }).click();
  await page.waitForURL(`${stack.url}/component/${component.id}?notice=published`);

  const ownerPage = await signIn(owner, `/component/${component.id}`);
  expect(
    await ownerPage
      .getByRole('row', { name: /^prod/ })
      .getByRole('link', { name: 'Publish v2' })
      .count(),
  ).toBe(1);
  expect(await ownerPage.getByRole('row', { name: /^prod/ }).getByRole('button').count()).toBe(0);
  expect(await ownerPage.getByTestId('release-request').count()).toBe(1);
  await ownerPage.getByRole('button', { name: 'Approve' }).click();
  await ownerPage.waitForURL(`${stack.url}/component/${component.id}?notice=request-approved`);
  expect(await ownerPage.getByTestId('release-request').count()).toBe(0);
});
