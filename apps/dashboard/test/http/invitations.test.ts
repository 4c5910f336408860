import type { User } from '@cp/domain';
import { PASSWORD } from '../../../auth-server/test/support/flow.js';
import { aMembership } from '../support/builders.js';
import {
  anAccount,
  startDashboardStack,
  type DashboardStack,
} from '../support/dashboard-server.js';
import {
  FormBrowser,
  csrfOf,
  headline,
  signedInBrowser,
  type Page,
  type SignedInBrowser,
} from '../support/sign-in.js';

/*
 * Invitations over real HTTP, with the real auth server: an owner invites (the link shown once),
 * lists and revokes; the invitee opens the link signed out, signs in or signs up on the auth
 * server's pages with the invited email pre-filled, comes back, joins, and lands on the
 * organization's components. Every refusal is a page with what to do, never a 500.
 */

let stack: DashboardStack;
let owner: User;
let org: string;
let ownerBrowser: SignedInBrowser;
/** The dashboard's clock runs `offsetMs` ahead of real time (expiry tests). */
let offsetMs = 0;
const DAY = 24 * 3600 * 1000;

beforeAll(async () => {
  stack = await startDashboardStack({ clock: { now: () => new Date(Date.now() + offsetMs) } });
  owner = await anAccount(stack.auth);
  org = owner.defaultOrganizationId;
  ownerBrowser = await signedInBrowser(stack.url, `/orgs/${org}/invitations`, owner);
}, 90_000);
afterAll(async () => {
  await stack?.close();
});
afterEach(() => {
  offsetMs = 0;
});

const linkOf = (page: Page): string => {
  const link = /data-testid="invitation-link"[^>]*>\s*([^<\s]+)\s*</.exec(page.html)?.[1];
  if (link === undefined)
    throw new Error(`no invitation link on the page (${page.status}): ${page.html.slice(0, 2000)}`);
  return link.replace(/&amp;/g, '&');
};
const pathOf = (link: string): string => new URL(link).pathname;

async function invite(
  email: string,
  role = 'member',
  by: SignedInBrowser = ownerBrowser,
  organizationId = org,
): Promise<Page> {
  return by.post(`/orgs/${organizationId}/invitations`, { email, role });
}

/** A browser that follows the link signed out and signs in as `user` on the auth server's page. */
async function openSignedOut(
  link: string,
  user: { email: string },
): Promise<{ browser: FormBrowser; toAuthServer: Page; signInPage: Page; page: Page }> {
  const browser = new FormBrowser();
  const toAuthServer = await browser.open(link);
  const signInPage = await browser.open(toAuthServer.url);
  const back = await browser.submit(
    signInPage,
    { email: user.email, password: PASSWORD },
    { action: /\/login$/ },
  );
  if (!back.url.startsWith(`${stack.url}/auth/callback?`))
    throw new Error(`sign-in ended at ${back.url}`);
  return { browser, toAuthServer, signInPage, page: await browser.open(back.url) };
}

const join = (browser: FormBrowser, page: Page) =>
  browser.submit(page, {}, { action: /^\/invitations\// });
const roleIn = async (user: User) =>
  (await stack.domain.repos.organizations.findMembership(user.id, org))?.role ?? null;

test('owner invites: the link is shown once (never in a URL), listed as pending; the invitee signs in through it and joins', async () => {
  const invitee = await anAccount(stack.auth);
  const created = await invite(invitee.email.toUpperCase(), 'member');
  expect(created.status).toBe(200);
  expect(created.url).toBe(`${stack.url}/orgs/${org}/invitations`);
  const link = linkOf(created);
  expect(link).toMatch(new RegExp(`^${stack.url}/invitations/cpi_[A-Za-z0-9_-]{43}$`));
  expect(created.html).toContain('No email is sent from this dashboard');
  const list = await ownerBrowser.get(`/orgs/${org}/invitations`);
  expect(list.html).not.toContain(link);
  expect(list.html).toContain(`Revoke the invitation for ${invitee.email.toUpperCase()}`);

  const { browser, toAuthServer, signInPage, page } = await openSignedOut(link, invitee);
  expect(new URL(toAuthServer.url).searchParams.get('login_hint')).toBe(
    invitee.email.toUpperCase(),
  );
  expect(signInPage.html).toContain(`value="${invitee.email.toUpperCase()}"`);
  // The token goes along, so the auth server spares the invitee its per-network budgets (its README "Throttling").
  const token = link.split('/').pop()!;
  expect(new URL(toAuthServer.url).searchParams.get('invitation')).toBe(token);
  expect(signInPage.html).toContain(`<input type="hidden" name="invitation" value="${token}">`);
  expect(page.url).toBe(link);
  expect(headline(page).title.replace(/&#39;/g, "'")).toBe(
    `Join ${(await stack.domain.repos.organizations.findById(org))!.name} as member`,
  );
  expect(page.html).toMatch(/<button type="submit">\s*Join\s*<\/button>/);

  const joined = await join(browser, page);
  expect(joined.status).toBe(200);
  expect(joined.url).toBe(`${stack.url}/orgs/${org}/components`);
  expect(await roleIn(invitee)).toBe('member');

  // Used: a clear 409 page, for the invitee and for anyone else holding the link.
  const again = await browser.open(link);
  expect({ status: again.status, title: headline(again).title }).toEqual({
    status: 409,
    title: 'This invitation was already used',
  });
  const signedOut = await new FormBrowser().open(link);
  expect({ status: signedOut.status, title: headline(signedOut).title }).toEqual({
    status: 409,
    title: 'This invitation was already used',
  });
  const post = await join(browser, page);
  expect({ status: post.status, title: headline(post).title }).toEqual({
    status: 409,
    title: 'This invitation was already used',
  });
  expect((await ownerBrowser.get(`/orgs/${org}/invitations`)).html).toMatch(/accepted/);
});

test('a new person signs UP through the link (the email kept) and joins', async () => {
  const email = `newcomer-${Date.now()}@example.test`;
  const link = linkOf(await invite(email, 'viewer'));
  const browser = new FormBrowser();
  const toAuthServer = await browser.open(link);
  const signInPage = await browser.open(toAuthServer.url);
  const href = /<a href="([^"]*\/signup[^"]*)"/.exec(signInPage.html)?.[1]?.replace(/&amp;/g, '&');
  const signUp = await browser.open(new URL(href!, signInPage.url).href);
  expect(signUp.html).toContain(`value="${email}"`);
  const back = await browser.submit(signUp, { email, password: PASSWORD }, { action: /\/signup/ });
  const page = await browser.open(back.url);
  expect(page.url).toBe(link);
  const joined = await join(browser, page);
  expect(joined.url).toBe(`${stack.url}/orgs/${org}/components`);
  const user = (await stack.domain.repos.users.findByEmail(email))!;
  expect(await roleIn(user)).toBe('viewer');
});

test('revoked and expired invitations, garbled tokens: clear pages (410, 404), never a 500, nothing joined', async () => {
  const invitee = await anAccount(stack.auth);
  const revokedLink = linkOf(await invite(invitee.email));
  const id = (await stack.domain.repos.invitations.listForOrganization(org, { limit: 1 }))[0]!.id;
  const revoked = await ownerBrowser.post(`/orgs/${org}/invitations/${id}/revoke`, {});
  expect(revoked.url).toBe(`${stack.url}/orgs/${org}/invitations?notice=invitation-revoked`);
  const gone = await new FormBrowser().open(revokedLink);
  expect({ status: gone.status, title: headline(gone).title }).toEqual({
    status: 410,
    title: 'This invitation was revoked',
  });

  const expiringLink = linkOf(await invite(invitee.email));
  const { browser, page } = await openSignedOut(expiringLink, invitee);
  expect(page.status).toBe(200);
  offsetMs = 7 * DAY + 1000;
  const expired = await browser.open(expiringLink);
  expect({ status: expired.status, title: headline(expired).title }).toEqual({
    status: 410,
    title: 'This invitation expired',
  });
  const late = await join(browser, page);
  expect({ status: late.status, title: headline(late).title }).toEqual({
    status: 410,
    title: 'This invitation expired',
  });
  expect(headline(late).message).toMatch(/Ask an owner or admin of .* for a new invitation\./);

  for (const token of [
    'nonsense',
    `cpi_${'A'.repeat(43)}`,
    `${pathOf(expiringLink).slice('/invitations/'.length)}x`,
  ]) {
    const unknown = await browser.open(`${stack.url}/invitations/${token}`);
    expect({ status: unknown.status, title: headline(unknown).title }).toEqual({
      status: 404,
      title: 'This invitation link is not valid',
    });
    expect(unknown.html).not.toContain(token);
    const posted = await browser.open(`${stack.url}/invitations/${token}`, {
      method: 'POST',
      form: { csrf_token: csrfOf(page) },
    });
    expect(posted.status).toBe(404);
  }
  expect(await roleIn(invitee)).toBeNull();
});

test("someone else's account cannot use the link: a 403 page that says to sign out; the invitation stays usable", async () => {
  const invitee = await anAccount(stack.auth);
  const other = await anAccount(stack.auth);
  const link = linkOf(await invite(invitee.email, 'admin'));
  const otherBrowser = await signedInBrowser(stack.url, '/orgs', other);
  const page = await otherBrowser.get(pathOf(link));
  expect(page.status).toBe(403);
  expect(headline(page).message).toContain(
    `This invitation is for ${invitee.email}, and you are signed in as ${other.email}.`,
  );
  expect(page.html).toMatch(/action="\/logout"/);
  const forced = await otherBrowser.post(pathOf(link), {});
  expect(forced.status).toBe(403);
  expect(await stack.domain.repos.organizations.findMembership(other.id, org)).toBeNull();
  // Without a CSRF token the POST does nothing.
  const forged = await otherBrowser.browser.open(link, { method: 'POST', form: {} });
  expect(forged.status).toBe(403);

  const { browser, page: joinPage } = await openSignedOut(link, invitee);
  expect((await join(browser, joinPage)).url).toBe(`${stack.url}/orgs/${org}/components`);
  expect(await roleIn(invitee)).toBe('admin');
});

test('two accepts in parallel: exactly one membership, one success, the other a clear 409', async () => {
  const invitee = await anAccount(stack.auth);
  const link = linkOf(await invite(invitee.email));
  const { browser, page } = await openSignedOut(link, invitee);
  const results = await Promise.all([
    join(browser, page),
    join(browser, page),
    join(browser, page),
  ]);
  expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
  expect(results.filter((r) => r.url === `${stack.url}/orgs/${org}/components`)).toHaveLength(1);
  expect(results.filter((r) => r.status === 409).map((r) => headline(r).title)).toEqual([
    'This invitation was already used',
    'This invitation was already used',
  ]);
  const members = await stack.domain.repos.organizations.listMembers(org, {
    roles: ['member'],
    limit: 100,
  });
  expect(members.filter((m) => m.userId === invitee.id)).toHaveLength(1);
  const audit = await stack.db!.prisma.auditEvent.findMany({
    where: { organizationId: org, kind: 'invitation.accepted', subjectUserId: invitee.id },
  });
  expect(audit).toHaveLength(1);
});

test('members and viewers see the form disabled with the reason, and the domain refuses their invitations and revocations', async () => {
  for (const role of ['member', 'viewer'] as const) {
    const user = await anAccount(stack.auth);
    await aMembership(stack.db, user, org, role);
    const browser = await signedInBrowser(stack.url, `/orgs/${org}/invitations`, user);
    expect(browser.page.status).toBe(200);
    expect(browser.page.html).toContain(
      `Your role is ${role}: only owners and admins can invite people.`,
    );
    expect(browser.page.html).toMatch(/<button type="submit"\s+disabled>\s*Invite\s*<\/button>/);
    const refused = await invite(`victim-${role}@example.test`, 'member', browser);
    expect({ status: refused.status, title: headline(refused).title }).toEqual({
      status: 403,
      title: 'Not allowed',
    });
    expect(headline(refused).message).toContain(
      `Your role in this organization is ${role}: only owners and admins can invite people.`,
    );
    linkOf(await invite(`pending-${role}@example.test`));
    const id = (await stack.domain.repos.invitations.listForOrganization(org, { limit: 1 }))[0]!.id;
    expect((await browser.post(`/orgs/${org}/invitations/${id}/revoke`, {})).status).toBe(403);
    expect(
      (await stack.domain.repos.invitations.listForOrganization(org, { limit: 1 }))[0]!.revokedAt,
    ).toBeNull();
  }
});

test('an admin invites; nobody invites an owner; a member is not invited again; bad emails are refused (4xx)', async () => {
  const admin = await anAccount(stack.auth);
  await aMembership(stack.db, admin, org, 'admin');
  const adminBrowser = await signedInBrowser(stack.url, `/orgs/${org}/invitations`, admin);
  expect(linkOf(await invite('by-admin@example.test', 'admin', adminBrowser))).toContain(
    '/invitations/cpi_',
  );
  const asOwner = await invite('owner@example.test', 'owner');
  expect({ status: asOwner.status, message: headline(asOwner).message }).toMatchObject({
    status: 400,
    message: expect.stringContaining('transfer ownership'),
  });
  const member = await invite(admin.email.toUpperCase());
  expect({ status: member.status, title: headline(member).title }).toEqual({
    status: 409,
    title: 'Already a member',
  });
  const refusal = (page: Page) => ({ status: page.status, message: headline(page).message });
  expect(refusal(await invite('not an email'))).toEqual({
    status: 400,
    message: 'email: enter the email address of the person to invite, such as name@example.com.',
  });
  expect(refusal(await invite('x@example.test', 'superuser'))).toEqual({
    status: 400,
    message: 'role: choose admin, member or viewer.',
  });
});
