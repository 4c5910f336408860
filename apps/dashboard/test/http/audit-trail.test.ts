import { randomUUID } from 'node:crypto';
import { aComponent, anAuditEvent, recordAuditEvents } from '@cp/db/testing';
import { AuditKind, type AuditEvent, type Component, type Role, type User } from '@cp/domain';
import { aMembership } from '../support/builders.js';
import {
  anAccount,
  startDashboardStack,
  type DashboardStack,
} from '../support/dashboard-server.js';
import { linkWithRel, textOf } from '../support/html.js';
import { headline, signedInBrowser, type Page, type SignedInBrowser } from '../support/sign-in.js';

/*
 * The audit trail page over real HTTP, on events recorded the way the write ports record them
 * (recordAudit, in a transaction): newest first, each filter, Older / Newer with pages of 3,
 * escaping of what people typed, owners and admins only, and another organization's ids.
 */

let stack: DashboardStack;
let owner: User;
let admin: User;
let orgId: string;
let pricing: Component;
let hostile: Component;
let ownerBrowser: SignedInBrowser;
const SCRIPT = '<script>alert("x")</script>';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 24, 9, minute));
const event = (overrides: Partial<AuditEvent> & Pick<AuditEvent, 'actorId'>) =>
  anAuditEvent({ organizationId: orgId, ...overrides });

beforeAll(async () => {
  stack = await startDashboardStack({ config: { auditPageSize: 3 } });
  [owner, admin] = [await anAccount(stack.auth), await anAccount(stack.auth)];
  orgId = owner.defaultOrganizationId;
  await aMembership(stack.db, admin, orgId, 'admin');
  pricing = await aComponent(stack.domain.repos, {
    organizationId: orgId,
    createdBy: owner.id,
    name: 'Pricing table',
  });
  hostile = await aComponent(stack.domain.repos, {
    organizationId: orgId,
    createdBy: owner.id,
    name: `Card ${SCRIPT}`,
  });
  // The builders' uploads recorded their own rows: this file reads only the events it records below.
  await stack.db!.prisma.auditEvent.deleteMany({ where: { organizationId: orgId } });
  await recordAuditEvents(
    stack.db!,
    event({
      actorId: owner.id,
      kind: AuditKind.UploadConfirmed,
      componentId: pricing.id,
      details: { sequence: 1, created: true },
      createdAt: at(1),
    }),
    event({
      actorId: owner.id,
      kind: AuditKind.TagsChanged,
      componentId: hostile.id,
      details: { before: [], after: [SCRIPT, 'ui'] },
      createdAt: at(2),
    }),
    event({
      actorId: admin.id,
      kind: AuditKind.ReleasePublished,
      componentId: pricing.id,
      details: { environment: 'prod', variantSequence: 1 },
      createdAt: at(3),
    }),
    event({
      actorId: owner.id,
      kind: AuditKind.MemberRoleChanged,
      subjectUserId: admin.id,
      details: { before: 'member', after: 'admin' },
      createdAt: at(4),
    }),
    event({
      actorId: admin.id,
      kind: AuditKind.EnvironmentProtectionChanged,
      details: { environment: 'staging', before: false, after: true },
      createdAt: at(5),
    }),
    event({
      actorId: admin.id,
      kind: AuditKind.ReleasePublished,
      componentId: pricing.id,
      details: {
        environment: 'staging',
        rollback: true,
        variantSequence: 1,
        previousVariantSequence: 2,
      },
      createdAt: at(6),
    }),
    // Details a newer writer might leave: odd or missing fields give a shorter line, never a 500.
    event({
      actorId: owner.id,
      kind: AuditKind.InvitationCreated,
      details: { email: `${SCRIPT}@acme.test`, role: 7, nested: { deep: [null] } },
      createdAt: at(7),
    }),
  );
  ownerBrowser = await signedInBrowser(stack.url, `/orgs/${orgId}/audit`, owner);
}, 90_000);
afterAll(async () => {
  await stack?.close();
});

/** Each row of the page: its kind attribute and its cells' text. */
const rowsOf = (page: Page) =>
  [
    ...page.html.matchAll(/<tr data-testid="audit-event" data-kind="([^"]+)">([\s\S]*?)<\/tr>/g),
  ].map((row) => [
    row[1]!,
    ...[...row[2]!.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((cell) => textOf(cell[1]!)),
  ]);
const kindsOn = (page: Page) => rowsOf(page).map((row) => row[0]);
const base = () => `/orgs/${orgId}/audit`;

/** Every page from the newest through rel=next, then back through rel=prev: each page's rows. */
async function walk(browser: SignedInBrowser, path: string) {
  const older: string[][][] = [];
  let page: Page | null = await browser.get(path);
  while (page !== null) {
    older.push(rowsOf(page));
    const next = linkWithRel(page, 'next');
    page = next === null ? null : await browser.browser.open(next);
  }
  return older;
}

test('newest first: when, who, the change, the component, a summary; the navigation links to it', async () => {
  const page = await ownerBrowser.get(base());
  expect(page.status).toBe(200);
  expect(page.html).toContain(`<a href="/orgs/${orgId}/audit" aria-current="page">Audit trail</a>`);
  const pages = await walk(ownerBrowser, base());
  expect(pages.map((rows) => rows.length)).toEqual([3, 3, 1]);
  expect(pages.flat()).toEqual([
    [
      AuditKind.InvitationCreated,
      '2026-11-24 09:07 UTC',
      owner.email,
      'Invitation sent',
      '',
      `${SCRIPT}@acme.test as 7`,
    ],
    [
      AuditKind.ReleasePublished,
      '2026-11-24 09:06 UTC',
      admin.email,
      'Released',
      'Pricing table',
      'Rolled back · variant 1 · to staging · replacing variant 2',
    ],
    [
      AuditKind.EnvironmentProtectionChanged,
      '2026-11-24 09:05 UTC',
      admin.email,
      'Environment protection changed',
      '',
      'staging · open → protected',
    ],
    [
      AuditKind.MemberRoleChanged,
      '2026-11-24 09:04 UTC',
      owner.email,
      'Role changed',
      '',
      `${admin.email} · member → admin`,
    ],
    [
      AuditKind.ReleasePublished,
      '2026-11-24 09:03 UTC',
      admin.email,
      'Released',
      'Pricing table',
      'Published · variant 1 · to prod',
    ],
    [
      AuditKind.TagsChanged,
      '2026-11-24 09:02 UTC',
      owner.email,
      'Tags changed',
      `Card ${SCRIPT}`,
      `none → ${SCRIPT}, ui`,
    ],
    [
      AuditKind.UploadConfirmed,
      '2026-11-24 09:01 UTC',
      owner.email,
      'Upload confirmed',
      'Pricing table',
      'variant 1 · new component',
    ],
  ]);
  expect(page.html).toContain(`<a href="/component/${pricing.id}"`);
});

test('what people typed (tags, names, emails) is escaped, never markup', async () => {
  const pages = [
    await ownerBrowser.get(base()),
    await ownerBrowser.get(`${base()}?component=${hostile.id}`),
  ];
  for (const page of pages) {
    expect(page.html).not.toContain('<script>');
    expect(page.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;');
  }
});

test('pages of 3 both ways, every change once; the pager and the filters keep each other', async () => {
  const older = await walk(
    ownerBrowser,
    `${base()}?kind=${AuditKind.ReleasePublished}&kind=${AuditKind.UploadConfirmed}&kind=${AuditKind.TagsChanged}&kind=${AuditKind.InvitationCreated}`,
  );
  expect(older.map((rows) => rows.map((row) => row[1]))).toEqual([
    ['2026-11-24 09:07 UTC', '2026-11-24 09:06 UTC', '2026-11-24 09:03 UTC'],
    ['2026-11-24 09:02 UTC', '2026-11-24 09:01 UTC'],
  ]);
  // Back from the oldest page: rel=prev leads to the newer ones, then the latest page has no "Newer".
  let page = await ownerBrowser.get(base());
  for (let next = linkWithRel(page, 'next'); next !== null; next = linkWithRel(page, 'next')) {
    page = await ownerBrowser.browser.open(next);
  }
  const back: string[][] = [];
  for (;;) {
    back.push(rowsOf(page).map((row) => row[1]!));
    const prev = linkWithRel(page, 'prev');
    if (prev === null) break;
    page = await ownerBrowser.browser.open(prev);
  }
  // Newer pages are the closest ones to the cursor; the last is the latest page, at its own URL.
  expect(back).toEqual([
    ['2026-11-24 09:01 UTC'],
    ['2026-11-24 09:04 UTC', '2026-11-24 09:03 UTC', '2026-11-24 09:02 UTC'],
    ['2026-11-24 09:07 UTC', '2026-11-24 09:06 UTC', '2026-11-24 09:05 UTC'],
  ]);
  expect(page.url).toBe(`${stack.url}${base()}`);
  expect(rowsOf(page).map((row) => row[1])).toEqual([
    '2026-11-24 09:07 UTC',
    '2026-11-24 09:06 UTC',
    '2026-11-24 09:05 UTC',
  ]);
  expect(linkWithRel(page, 'first')).toBeNull();
});

test('filters by component, by person, by kind, and all three together, as a GET form', async () => {
  const page = await ownerBrowser.get(base());
  expect(page.html).toMatch(/<form\s+method="get"\s+action="\/orgs\/[^"]+\/audit"/);
  expect(page.html.match(/<form method="post"/g)).toHaveLength(1); // sign-out only: nothing here is editable
  expect(kindsOn(await ownerBrowser.get(`${base()}?component=${pricing.id}`))).toEqual([
    AuditKind.ReleasePublished,
    AuditKind.ReleasePublished,
    AuditKind.UploadConfirmed,
  ]);
  expect(
    (await walk(ownerBrowser, `${base()}?person=${admin.id}`)).flat().map((row) => row[1]),
  ).toEqual(['2026-11-24 09:06 UTC', '2026-11-24 09:05 UTC', '2026-11-24 09:03 UTC']);
  expect(kindsOn(await ownerBrowser.get(`${base()}?kind=${AuditKind.MemberRoleChanged}`))).toEqual([
    AuditKind.MemberRoleChanged,
  ]);
  const all = await ownerBrowser.get(
    `${base()}?component=${pricing.id}&person=${admin.id}&kind=${AuditKind.ReleasePublished}`,
  );
  expect(rowsOf(all).map((row) => row[1])).toEqual([
    '2026-11-24 09:06 UTC',
    '2026-11-24 09:03 UTC',
  ]);
  // The form shows the filters chosen.
  expect(all.html).toMatch(new RegExp(`<option value="${admin.id}" selected>`));
  expect(all.html).toContain(
    `<option value="${AuditKind.ReleasePublished}" selected>Released</option>`,
  );
  const none = await ownerBrowser.get(`${base()}?component=${randomUUID()}`);
  expect([
    none.status,
    rowsOf(none),
    none.html.includes('No change matches these filters.'),
  ]).toEqual([200, [], true]);
});

test('bad filters and cursors: 400 and 404 pages, never a 500', async () => {
  const outcome = async (query: string) => {
    const page = await ownerBrowser.get(`${base()}?${query}`);
    return { status: page.status, ...headline(page) };
  };
  expect(await outcome('kind=release.deleted')).toEqual({
    status: 400,
    title: 'That did not work',
    message: 'kind: "release.deleted" is not a kind of change: choose one from the list.',
  });
  expect(await outcome('component=nope')).toEqual({
    status: 400,
    title: 'That did not work',
    message: 'component: "nope" is not a component id: choose a component from the list.',
  });
  expect(await outcome('person=%3Cscript%3E')).toMatchObject({
    status: 400,
    message: `person: "<script>" is not a person's id: choose a person from the list.`,
  });
  for (const cursor of ['before=nope', `before=${randomUUID()}`, `after=${randomUUID()}`]) {
    expect(await outcome(cursor)).toEqual({
      status: 404,
      title: 'Not found',
      message: 'There is nothing here, or it is not in one of your organizations.',
    });
  }
});

test.each<Role>(['member', 'viewer'])(
  'a %s gets 403 naming who can, and no link to the page',
  async (role) => {
    const user = await anAccount(stack.auth);
    await aMembership(stack.db, user, orgId, role);
    const browser = await signedInBrowser(stack.url, `/orgs/${orgId}/components`, user);
    expect(browser.page.html).not.toContain(`/orgs/${orgId}/audit`);
    const page = await browser.get(base());
    expect({ status: page.status, ...headline(page) }).toEqual({
      status: 403,
      title: 'Not allowed',
      message: `Your role in this organization is ${role}: only owners and admins can read the audit trail. Ask an owner or admin for a role that can.`,
    });
    expect(page.html).not.toContain('data-testid="audit-event"');
  },
);

test("an admin reads it; another organization's trail, component or cursor answers like an unknown one", async () => {
  const adminBrowser = await signedInBrowser(stack.url, base(), admin);
  expect(kindsOn(adminBrowser.page)).toHaveLength(3);
  const stranger = await anAccount(stack.auth);
  const theirs = await signedInBrowser(
    stack.url,
    `/orgs/${stranger.defaultOrganizationId}/audit`,
    stranger,
  );
  const foreign = await theirs.get(base());
  const unknown = await theirs.get(`/orgs/${randomUUID()}/audit`);
  expect([foreign.status, headline(foreign)]).toEqual([unknown.status, headline(unknown)]);
  expect(foreign.status).toBe(404);
  const { id } = (await stack.domain.repos.auditTrail.list(orgId, { limit: 1 }))[0]!;
  const cursor = await theirs.get(`/orgs/${stranger.defaultOrganizationId}/audit?before=${id}`);
  expect(cursor.status).toBe(404);
  const filtered = await theirs.get(
    `/orgs/${stranger.defaultOrganizationId}/audit?component=${pricing.id}`,
  );
  expect([filtered.status, rowsOf(filtered), filtered.html.includes('Pricing table')]).toEqual([
    200,
    [],
    false,
  ]);
});

test('changes made through a credential say so beside who: the CI job, or the API token by name', async () => {
  const someone = await anAccount(stack.auth);
  const organizationId = someone.defaultOrganizationId;
  await stack.db!.prisma.auditEvent.deleteMany({ where: { organizationId } });
  const ci = {
    via: 'ci',
    policyId: randomUUID(),
    policyName: 'web-release',
    provider: 'github',
    repository: 'acme/web',
    workflow: 'acme/web/.github/workflows/release.yml@refs/tags/v1.2.0',
    runId: '8812',
    commit: '9fceb02d0ae598e95dc970b74767f19372d61af8',
  } as const;
  await recordAuditEvents(
    stack.db!,
    anAuditEvent({ organizationId, actorId: someone.id, createdAt: at(1) }),
    anAuditEvent({ organizationId, actorId: someone.id, via: { via: 'api-token', tokenId: randomUUID(), tokenName: 'nightly <b>' }, createdAt: at(2) }),
    anAuditEvent({ organizationId, actorId: someone.id, via: ci, createdAt: at(3) }),
  );
  const { page } = await signedInBrowser(stack.url, `/orgs/${organizationId}/audit`, someone);
  const who = [...page.html.matchAll(/<tr data-testid="audit-event"[\s\S]*?<td>[\s\S]*?<\/td>\s*<td>([\s\S]*?)<\/td>/g)].map((row) => textOf(row[1] ?? ''));
  expect(who).toEqual([
    `${someone.email} via CI: acme/web, release.yml, run 8812, commit 9fceb02`,
    `${someone.email} via API token 'nightly <b>'`,
    someone.email,
  ]);
  expect(page.html).not.toContain('nightly <b>');
});
