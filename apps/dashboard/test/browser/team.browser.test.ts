import { mkdir } from 'node:fs/promises';
import { launchChromium, type Browser, type Page } from '@cp/browser-testing';
import type { Component, User, Variant } from '@cp/domain';
import { PASSWORD } from '../../../auth-server/test/support/flow.js';
import { aComponentWithVariants } from '../support/builders.js';
import { signInInChromium } from '../support/chromium-sign-in.js';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';

/*
 * A team's whole day one in headless Chromium, through the real auth server: the owner invites a
 * viewer and a member; each signs up through the link (the email pre-filled) and joins; the viewer
 * sees the components but cannot publish (the button is disabled, and a forced submit is refused by
 * the server); the member's publish to the protected prod becomes a release request that the owner
 * approves; the audit trail shows every step. Screenshots land in test-artifacts/.
 */

const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url).pathname;

let stack: DashboardStack;
let browser: Browser;
let owner: User;
let component: Component;
let variants: Variant[];

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  stack = await startDashboardStack();
  browser = await launchChromium();
  owner = await anAccount(stack.auth);
  ({ component, variants } = await aComponentWithVariants(stack.domain, owner, 2, { name: 'Pricing table' }));
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const org = () => owner.defaultOrganizationId;

const signIn = (user: User, path: string): Promise<Page> => signInInChromium(browser, stack.url, user, path);

/** The owner fills the Invite form; the link is shown once, on the page that answers. */
async function invite(page: Page, email: string, role: 'viewer' | 'member'): Promise<string> {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Role').selectOption(role);
  await page.getByRole('button', { name: 'Invite' }).click();
  const link = (await page.getByTestId('invitation-link').textContent())?.trim() ?? '';
  expect(link).toMatch(new RegExp(`^${stack.url}/invitations/`));
  return link;
}

/** A new person opens the link in their own browser, creates an account (the email is already there), and joins. */
async function signUpThrough(link: string, email: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto(link);
  expect(await page.getByLabel('Email').inputValue()).toBe(email);
  await page.getByRole('link', { name: 'Create an account' }).click();
  expect(await page.getByLabel('Email').inputValue()).toBe(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Create account' }).click();
  await page.waitForURL(link, { timeout: 10_000 });
  await page.getByRole('button', { name: 'Join' }).click();
  await page.waitForURL(`${stack.url}/orgs/${org()}/components`);
  return page;
}

it('invite, sign up through the link, viewer refused, member request approved, all in the audit trail', async () => {
  const ownerPage = await signIn(owner, `/orgs/${org()}/invitations`);
  const viewerEmail = `viewer-${Date.now()}@example.test`;
  const memberEmail = `member-${Date.now()}@example.test`;
  const viewerLink = await invite(ownerPage, viewerEmail, 'viewer');
  await ownerPage.screenshot({ path: `${ARTIFACTS}team-invitation.png`, fullPage: true });
  const memberLink = await invite(ownerPage, memberEmail, 'member');

  // The viewer joins and sees the organization's components.
  const viewer = await signUpThrough(viewerLink, viewerEmail);
  expect(await viewer.getByRole('link', { name: 'Pricing table' }).count()).toBeGreaterThan(0);

  // Publishing is disabled for the viewer, with the reason; a forced submit is refused by the server.
  await viewer.goto(`${stack.url}/component/${component.id}/publish?environment=staging&variant=${variants[1]!.id}`);
  const publish = viewer.getByRole('button', { name: 'Publish staging to v2' });
  expect(await publish.isDisabled()).toBe(true);
  await viewer.evaluate(`document.querySelector('form[action$="/publish"] button[type=submit]').removeAttribute('disabled')`);
  const [refused] = await Promise.all([viewer.waitForEvent('response', (r) => r.request().method() === 'POST'), publish.click()]);
  expect(refused.status()).toBe(403);
  expect(await viewer.textContent('body')).toContain('Your role in this organization is viewer');
  await viewer.screenshot({ path: `${ARTIFACTS}team-viewer-refused.png`, fullPage: true });

  // The member's publish to prod (protected) becomes a release request.
  const member = await signUpThrough(memberLink, memberEmail);
  await member.goto(`${stack.url}/component/${component.id}`);
  await member.getByRole('row', { name: /^prod/ }).getByRole('link', { name: 'Publish v2' }).click();
  await member.getByRole('button', { name: 'Publish prod to v2' }).click();
  await member.waitForURL(`${stack.url}/component/${component.id}?notice=requested`);
  expect(await member.textContent('body')).toContain('Release request sent');
  expect(await stack.domain.repos.releases.listCurrent(component.id)).toEqual([]);

  // The owner approves it from the organization's list; prod then serves v2.
  await ownerPage.goto(`${stack.url}/orgs/${org()}/release-requests`);
  const request = ownerPage.getByTestId('release-request').filter({ hasText: memberEmail });
  await request.getByRole('button', { name: 'Approve' }).click();
  await ownerPage.waitForLoadState();
  await ownerPage.screenshot({ path: `${ARTIFACTS}team-request-approved.png`, fullPage: true });
  expect(await stack.domain.repos.releases.listCurrent(component.id)).toMatchObject([
    { environmentName: 'prod', variantId: variants[1]!.id, releasedBy: owner.id },
  ]);

  // The members page lists both newcomers with the roles they were invited with.
  await ownerPage.goto(`${stack.url}/orgs/${org()}/members`);
  await ownerPage.screenshot({ path: `${ARTIFACTS}team-members.png`, fullPage: true });
  for (const [email, role] of [[viewerEmail, 'viewer'], [memberEmail, 'member']] as const) {
    expect(await ownerPage.getByRole('row', { name: new RegExp(email) }).getByRole('cell').first().textContent()).toBe(role);
  }

  // The audit trail, newest first, shows every step: who joined, who asked, who approved, what was released.
  await ownerPage.goto(`${stack.url}/orgs/${org()}/audit`);
  await ownerPage.screenshot({ path: `${ARTIFACTS}team-audit.png`, fullPage: true });
  const rows = ownerPage.getByTestId('audit-event');
  const kinds = await Promise.all((await rows.all()).map((row) => row.getAttribute('data-kind')));
  expect(kinds.slice(0, 7)).toEqual([
    'release.approved',
    'release.published',
    'release.requested',
    'invitation.accepted',
    'invitation.accepted',
    'invitation.created',
    'invitation.created',
  ]);
  const text = (await rows.allTextContents()).join('\n');
  for (const email of [viewerEmail, memberEmail, owner.email]) expect(text).toContain(email);
}, 120_000);
