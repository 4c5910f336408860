import { publishVariant, type Component, type Role, type User, type Variant } from '@cp/domain';
import { aComponentWithVariants, aMembership } from '../support/builders.js';
import { press } from '../support/buttons.js';
import {
  anAccount,
  startDashboardStack,
  type DashboardStack,
} from '../support/dashboard-server.js';
import { buttonsOf, tableAfter } from '../support/html.js';
import { headline, signedInBrowser, type Page, type SignedInBrowser } from '../support/sign-in.js';

/*
 * Protected environments over real HTTP (the dashboard and the auth server on one database): prod is
 * protected in a new organization, so a member sees Publish / Roll back disabled with the reason and a
 * POST sent anyway is refused (403, the domain's message, nothing released); the owner publishes there.
 * Only owners and admins protect or open an environment.
 */

let stack: DashboardStack;
let owner: User;
let orgId: string;
let component: Component;
let variants: Variant[];
let admin: Signed;
let member: Signed;

interface Signed extends SignedInBrowser {
  readonly user: User;
}

/** `user` signed in on `path`, with a way to POST forms carrying the page's CSRF token. */
async function signedIn(user: User, path: string): Promise<Signed> {
  return { user, ...(await signedInBrowser(stack.url, path, user)) };
}

/** A new account that joins the owner's organization with `role`, signed in on its environments page. */
async function aSignedIn(role: Role): Promise<Signed> {
  const user = await anAccount(stack.auth);
  await aMembership(stack.db, user, orgId, role);
  return signedIn(user, environmentsPath());
}

beforeAll(async () => {
  stack = await startDashboardStack();
  owner = await anAccount(stack.auth);
  orgId = owner.defaultOrganizationId;
  ({ component, variants } = await aComponentWithVariants(stack.domain, owner, 3));
  // prod serves v2: its row offers "Publish v3" and "Roll back to v1".
  await publishVariant(
    {
      actor: { userId: owner.id },
      componentId: component.id,
      environment: 'prod',
      variantId: variants[1]!.id,
    },
    stack.domain,
  );
  admin = await aSignedIn('admin');
  member = await aSignedIn('member');
}, 90_000);
afterAll(async () => {
  await stack?.close();
});

const environmentsPath = () => `/orgs/${orgId}/environments`;
const environment = async (name: string) =>
  (await stack.domain.repos.environments.findByName(orgId, name))!;
const prodServes = async () =>
  (await stack.domain.repos.releases.findCurrent(component.id, (await environment('prod')).id))
    ?.variantId;
const outcome = (page: Page) => ({ status: page.status, ...headline(page) });
const whoPublishes = (page: Page) =>
  tableAfter(page, 'Environments').map((row) => [row[0], row[2]]);

test('a new organization has prod protected and staging open; the owner sees it with the buttons that change it', async () => {
  expect(
    (await stack.domain.repos.environments.listForOrganization(orgId)).map((e) => [
      e.name,
      e.protected,
    ]),
  ).toEqual([
    ['prod', true],
    ['staging', false],
  ]);
  const { page } = await signedIn(owner, environmentsPath());
  expect(whoPublishes(page)).toEqual([
    ['prod', 'Protected: owners and admins Open to every member'],
    ['staging', 'Every member Protect'],
  ]);
  expect(buttonsOf(page)).toEqual(
    expect.arrayContaining(['Open to every member (prod)', 'Protect staging']),
  );
});

describe('a member', () => {
  test('sees Publish and Roll back of prod as links, with a note that they send a release request', async () => {
    const page = await member.browser.open(`${stack.url}/component/${component.id}`);
    const prod = await environment('prod');
    const note = `prod is protected: your publish sends a release request; an owner or admin of the organization approves it.`;
    expect(tableAfter(page, 'Environments').find((row) => row[0] === 'prod')).toEqual([
      'prod',
      expect.stringMatching(/^v2 since /),
      'none Experience Rollout',
      `Publish v3 Roll back to v1 ${note}`,
    ]);
    expect(page.html).toContain(`<span class="hint" id="protected-${prod.id}">${note}</span>`);
    expect(page.html).toContain(
      `<a class="button" href="/component/${component.id}/publish?environment=prod&amp;variant=${variants[2]!.id}" aria-describedby="protected-${prod.id}">Publish v3</a>`,
    );
  });

  test('gets the confirmation page with its button enabled and the note, every environment selectable', async () => {
    const confirm = await member.browser.open(
      `${stack.url}/component/${component.id}/publish?environment=prod&variant=${variants[2]!.id}`,
    );
    expect(confirm.status).toBe(200);
    expect(confirm.html).toContain('<button type="submit">Publish prod to v3</button>');
    expect(confirm.html).toContain('id="publish-request">prod is protected: your publish sends a release request');
    const choose = await member.browser.open(
      `${stack.url}/component/${component.id}/publish?variant=${variants[2]!.id}`,
    );
    expect(choose.html).toContain(
      '<option value="prod">prod (protected: sends a release request)</option><option value="staging">staging</option>',
    );
  });

  test('publishing or rolling back prod makes one release request, nothing released; an admin approves it', async () => {
    const path = `/component/${component.id}/publish`;
    const [publish, rollBack] = await Promise.all([
      member.post(path, { environment: 'prod', variant: variants[2]!.id }),
      member.post(path, { environment: 'prod', variant: variants[0]!.id }),
    ]);
    for (const sent of [publish, rollBack]) {
      expect([sent.status, sent.url]).toEqual([200, `${stack.url}/component/${component.id}?notice=requested`]);
      expect(sent.html).toContain('Release request sent; waiting for an owner or admin');
    }
    expect(await prodServes()).toBe(variants[1]!.id);
    const [request] = await stack.domain.repos.releaseRequests.listPending(component.id);
    expect(await stack.domain.repos.releaseRequests.listPending(component.id)).toHaveLength(1);
    const list = await member.browser.open(`${stack.url}/orgs/${orgId}/release-requests`);
    expect(list.html).toContain('data-testid="release-request"');
    expect(list.html).toContain('Only owners and admins approve or decline release requests.');
    // The member cannot decide, even by sending the form.
    const refused = await member.post(`/release-requests/${request!.id}/approve`, {});
    expect(refused.status).toBe(403);
    const blank = await admin.post(`/release-requests/${request!.id}/decline`, { reason: '   ' });
    expect({ status: blank.status, message: headline(blank).message }).toEqual({
      status: 400,
      message: 'reason: say why the request is declined; the requester reads it.',
    });
    const long = await admin.post(`/release-requests/${request!.id}/decline`, { reason: 'x'.repeat(501) });
    expect({ status: long.status, message: headline(long).message }).toEqual({
      status: 400,
      message: 'reason: at most 500 characters; shorten it.',
    });
    const [approved, declined] = await Promise.all([
      admin.post(`/release-requests/${request!.id}/approve`, { back: `/orgs/${orgId}/release-requests` }),
      admin.post(`/release-requests/${request!.id}/decline`, { reason: 'racing' }),
    ]);
    const outcomes = [approved, declined].map((p) => p.status).sort();
    expect(outcomes).toEqual([200, 409]);
    const loser = [approved, declined].find((p) => p.status === 409)!;
    expect(headline(loser).message).toContain(`already`);
    expect(headline(loser).message).toContain(admin.user.email);
    if (approved.status === 200) {
      expect(approved.url).toBe(`${stack.url}/orgs/${orgId}/release-requests?notice=request-approved`);
      expect(await prodServes()).toBe(request!.variantId);
    } else expect(await prodServes()).toBe(variants[1]!.id);
    const staged = await member.post(path, { environment: 'staging', variant: variants[2]!.id });
    expect([staged.status, staged.url]).toEqual([
      200,
      `${stack.url}/component/${component.id}?notice=published`,
    ]);
  });

  test('sees which environments are protected, the buttons that change it disabled with the reason, and sending the form anyway is 403', async () => {
    expect(whoPublishes(member.page)).toEqual([
      ['prod', 'Protected: owners and admins Open to every member'],
      ['staging', 'Every member Protect'],
    ]);
    expect(member.page.html).toMatch(/<button type="submit" class="secondary" disabled aria-describedby="setup-note" aria-label="Protect staging">/);
    expect(member.page.html).toContain('Your role here is member: only owners and admins can add, rename, remove, protect or open environments.');
    const before = await stack.domain.repos.environments.listForOrganization(orgId);
    for (const [name, value] of [
      ['prod', 'false'],
      ['staging', 'true'],
    ] as const) {
      const sent = await member.post(
        `${environmentsPath()}/${(await environment(name)).id}/protection`,
        { protected: value },
      );
      expect(outcome(sent)).toEqual({
        status: 403,
        title: 'Not allowed',
        message: 'Your role in this organization is member: only owners and admins can change environments. Ask an owner or admin for a role that can.',
      });
    }
    expect(await stack.domain.repos.environments.listForOrganization(orgId)).toEqual(before);
  });
});

test('the owner publishes and rolls back prod through the same pages', async () => {
  const { browser } = await signedIn(owner, `/component/${component.id}`);
  for (const [variant, button] of [
    [variants[2]!, 'Publish prod to v3'],
    [variants[0]!, 'Roll back prod to v1'],
  ] as const) {
    const confirm = await browser.open(
      `${stack.url}/component/${component.id}/publish?environment=prod&variant=${variant.id}`,
    );
    expect(confirm.html).toContain(`<button type="submit">${button}</button>`);
    const done = await browser.submit(confirm, {}, { action: /\/publish$/ });
    expect([done.status, done.url]).toEqual([
      200,
      `${stack.url}/component/${component.id}?notice=published`,
    ]);
    expect(await prodServes()).toBe(variant.id);
  }
});

test('an admin protects staging and opens it again with the page buttons; adds an environment protected; a bad value is 400', async () => {
  const protectedPage = await press(admin.browser, admin.page, 'Protect staging');
  expect([protectedPage.status, protectedPage.url]).toEqual([
    200,
    `${stack.url}${environmentsPath()}?notice=env-protected`,
  ]);
  expect(protectedPage.html).toContain(
    'Environment protected: only owners and admins publish to it now.',
  );
  expect((await environment('staging')).protected).toBe(true);
  expect(whoPublishes(protectedPage)).toEqual([
    ['prod', 'Protected: owners and admins Open to every member'],
    ['staging', 'Protected: owners and admins Open to every member'],
  ]);

  const opened = await press(admin.browser, protectedPage, 'Open to every member (staging)');
  expect([opened.status, opened.url]).toEqual([
    200,
    `${stack.url}${environmentsPath()}?notice=env-opened`,
  ]);
  expect((await environment('staging')).protected).toBe(false);

  const added = await admin.post(environmentsPath(), { name: 'live', protected: 'true' });
  expect([added.status, added.url]).toEqual([
    200,
    `${stack.url}${environmentsPath()}?notice=env-added`,
  ]);
  expect((await environment('live')).protected).toBe(true);

  for (const value of ['', 'yes', 'TRUE']) {
    const bad = await admin.post(
      `${environmentsPath()}/${(await environment('live')).id}/protection`,
      { protected: value },
    );
    expect(outcome(bad)).toEqual({
      status: 400,
      title: 'That did not work',
      message:
        'protected: send true (only owners and admins publish there) or false (every member does).',
    });
  }
  expect((await environment('live')).protected).toBe(true);
});
