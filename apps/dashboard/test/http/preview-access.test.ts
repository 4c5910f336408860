import { hashPreviewKey, Limits, type Role, type User } from '@cp/domain';
import { aComponentWithVariants, aMembership } from '../support/builders.js';
import {
  anAccount,
  startDashboardStack,
  type DashboardStack,
} from '../support/dashboard-server.js';
import { headline, signedInBrowser } from '../support/sign-in.js';

/*
 * Preview access over real HTTP: the owner switches private previews and creates a key (shown once,
 * stored only as a hash) and revokes it; a member of the same organization sees the state read-only
 * and gets 403 on every form, with nothing changed; parallel creations stop at the limit.
 */

let stack: DashboardStack;
let owner: User;
let orgId: string;
beforeAll(async () => {
  stack = await startDashboardStack();
  owner = await anAccount(stack.auth);
  orgId = owner.defaultOrganizationId;
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const base = () => `/orgs/${orgId}/previews`;

const signedIn = (user: User) => signedInBrowser(stack.url, base(), user);

async function aMemberWith(role: Role): Promise<User> {
  const user = await anAccount(stack.auth);
  await aMembership(stack.db, user, orgId, role);
  return user;
}

const keys = () => stack.domain.repos.previewKeys.listForOrganization(orgId);
const isPrivate = async () =>
  (await stack.domain.repos.organizations.findById(orgId))!.privatePreviews;

test('the owner makes previews private, creates a key shown once, revokes it, and makes previews public again', async () => {
  const { page, post, get } = await signedIn(owner);
  expect(page.status).toBe(200);
  expect(page.html).toContain('Previews are public.');

  const made = await post(`${base()}/private`, { private: 'on' });
  expect([made.status, made.url]).toEqual([200, `${stack.url}${base()}?notice=previews-private`]);
  expect(await isPrivate()).toBe(true);

  const created = await post(`${base()}/keys`, { name: 'staging host' });
  expect(created.status).toBe(200);
  const secret = /id="new-secret"\s+readonly\s+value="(cpk_[^"]+)"/.exec(created.html)?.[1];
  expect(secret).toBeDefined();
  const [stored] = await keys();
  expect(stored).toMatchObject({
    name: 'staging host',
    prefix: secret!.slice(0, 10),
    revokedAt: null,
    createdBy: owner.id,
  });
  expect(await stack.domain.repos.previewKeys.isActive(orgId, hashPreviewKey(secret!))).toBe(true);
  // Shown once: the list afterwards names the key by its prefix only.
  const later = await get(base());
  expect(later.html).toContain(`${secret!.slice(0, 10)}…`);
  expect(later.html).not.toContain(secret!);

  // The component page's preview snippet now says how to pass a key.
  const { component } = await aComponentWithVariants(stack.domain, owner, 1, {
    name: 'Snippet card',
  });
  expect((await get(`/component/${component.id}`)).html).toContain(
    'preview-key=&quot;YOUR-PREVIEW-KEY&quot;',
  );

  const revoked = await post(`${base()}/keys/${stored!.id}/revoke`, {});
  expect([revoked.status, revoked.url]).toEqual([
    200,
    `${stack.url}${base()}?notice=preview-key-revoked`,
  ]);
  expect(await stack.domain.repos.previewKeys.isActive(orgId, hashPreviewKey(secret!))).toBe(false);

  await post(`${base()}/private`, { private: 'off' });
  expect(await isPrivate()).toBe(false);
  expect((await post(`${base()}/private`, { private: 'maybe' })).status).toBe(400);
  expect((await post(`${base()}/keys`, { name: '   ' })).status).toBe(400);
});

test('a member sees the state read-only and gets 403 on every form, with nothing changed', async () => {
  const member = await aMemberWith('member');
  await (await signedIn(owner)).post(`${base()}/keys`, { name: 'kept' });
  const { page, post } = await signedIn(member);
  expect(page.status).toBe(200);
  expect(page.html).toContain('Your role here is member: only owners and admins can change preview access or preview keys.');
  expect(page.html).toMatch(/<button type="submit" disabled aria-describedby="previews-role-note">Create<\/button>/);
  const before = { keys: await keys(), private: await isPrivate() };
  const key = before.keys.find((k) => k.revokedAt === null)!;
  for (const [path, form] of [
    [`${base()}/private`, { private: 'on' }],
    [`${base()}/keys`, { name: 'sneaky' }],
    [`${base()}/keys/${key.id}/revoke`, {}],
  ] as const) {
    const answer = await post(path, form);
    expect({ path, status: answer.status, title: headline(answer).title }).toEqual({
      path,
      status: 403,
      title: 'Not allowed',
    });
  }
  expect({ keys: await keys(), private: await isPrivate() }).toEqual(before);
});

test('an admin may manage preview keys too', async () => {
  const { post } = await signedIn(await aMemberWith('admin'));
  expect((await post(`${base()}/keys`, { name: 'admin key' })).status).toBe(200);
});

test('parallel creations never pass the per-organization limit', async () => {
  const someone = await anAccount(stack.auth);
  orgId = someone.defaultOrganizationId;
  const { post } = await signedIn(someone);
  const answers = await Promise.all(
    Array.from({ length: Limits.previewKeysPerOrganization + 6 }, (_, i) =>
      post(`${base()}/keys`, { name: `key ${i}` }),
    ),
  );
  expect(answers.filter((a) => a.status === 200)).toHaveLength(Limits.previewKeysPerOrganization);
  const refused = answers.filter((a) => a.status !== 200);
  expect(refused.map((a) => [a.status, headline(a).title])).toEqual(
    refused.map(() => [409, 'Limit reached']),
  );
  expect((await keys()).filter((k) => k.revokedAt === null)).toHaveLength(
    Limits.previewKeysPerOrganization,
  );
});
