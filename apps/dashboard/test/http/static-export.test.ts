import { AuditKind, type Role, type User } from '@cp/domain';
import { aMembership } from '../support/builders.js';
import {
  anAccount,
  startDashboardStack,
  type DashboardStack,
} from '../support/dashboard-server.js';
import { headline, signedInBrowser } from '../support/sign-in.js';

/*
 * The static export page over real HTTP: an owner turns the export on (an audit row, a queued
 * export job, the public URL from EXPORT_PUBLIC_URL shown), sees the last export and its error,
 * exports again, turns it off; a member gets 403 on the page and the form, with nothing changed.
 */

let stack: DashboardStack;
let owner: User;
let orgId: string;
beforeAll(async () => {
  stack = await startDashboardStack({
    config: { staticExport: { prefix: 'cdn/', publicUrl: 'https://cdn.example.com' } },
  });
  owner = await anAccount(stack.auth);
  orgId = owner.defaultOrganizationId;
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const base = () => `/orgs/${orgId}/export`;
const signedIn = (user: User) => signedInBrowser(stack.url, base(), user);
const state = () => stack.domain.repos.staticExports.find(orgId);
const jobs = async () =>
  (
    await stack.db!.prisma.$queryRawUnsafe<{ full: boolean }[]>(
      `SELECT (data->>'full')::boolean AS full FROM jobs.job WHERE name = 'static-export' AND data->>'organizationId' = $1 ORDER BY created_on`,
      orgId,
    )
  ).map((row) => row.full);

async function aMemberWith(role: Role): Promise<User> {
  const user = await anAccount(stack.auth);
  await aMembership(stack.db, user, orgId, role);
  return user;
}

test('the owner turns it on, sees where it is served and how the last export went, exports again, and turns it off', async () => {
  const { page, post, get } = await signedIn(owner);
  expect(page.status).toBe(200);
  expect(page.html).toContain('<strong>Static export is off.</strong>');
  expect(page.html).toContain(`<a href="/orgs/${orgId}/export" aria-current="page">Static export</a>`);

  const on = await post(base(), { enabled: 'on' });
  expect([on.status, on.url]).toEqual([200, `${stack.url}${base()}?notice=export-on`]);
  expect(on.html).toContain(
    'Static export is on: everything released is being written to the export bucket.',
  );
  expect(on.html).toContain(`Served at <code>https://cdn.example.com/cdn/${orgId}/</code>`);
  expect(on.html).toContain('Last complete export</dt>\n      <dd>never</dd>');
  expect(await state()).toMatchObject({ enabled: true });
  expect(await jobs()).toEqual([true]);

  await stack.domain.repos.staticExports.recordRun(orgId, {
    at: new Date('2026-01-02T03:04:05Z'),
    error: 'Bucket "components-export" does not exist',
  });
  const failed = await get(base());
  expect(failed.html.replace(/\s+/g, ' ')).toContain(
    'The last export failed <time datetime="2026-01-02T03:04:05.000Z">2026-01-02 03:04 UTC</time>, and is retried with backoff: Bucket &quot;components-export&quot; does not exist',
  );

  const again = await post(base(), { enabled: 'on' });
  expect(again.url).toBe(`${stack.url}${base()}?notice=export-again`);
  expect(await jobs()).toEqual([true, true]);

  const off = await post(base(), { enabled: 'off' });
  expect(off.url).toBe(`${stack.url}${base()}?notice=export-off`);
  expect(await state()).toMatchObject({ enabled: false });
  expect(await jobs()).toEqual([true, true, true]);

  const trail = await stack.domain.repos.auditTrail.list(orgId, {
    limit: 50,
    kinds: [AuditKind.StaticExportChanged],
  });
  expect(trail.map((row) => row.details)).toEqual([
    { before: true, after: false },
    { before: false, after: true },
  ]);

  const bad = await post(base(), { enabled: 'maybe' });
  expect([bad.status, headline(bad).message]).toEqual([400, 'enabled: send "on" or "off".']);
});

test('a member sees no link, and gets 403 on the page and the form, with nothing changed', async () => {
  const member = await aMemberWith('member');
  const before = await state();
  const { page, post } = await signedIn(member);
  expect(page.status).toBe(403);
  expect(headline(page)).toMatchObject({ title: 'Not allowed' });
  expect(page.html).not.toContain(`href="/orgs/${orgId}/export"`);
  const answer = await post(base(), { enabled: 'on' });
  expect([answer.status, headline(answer).title]).toEqual([403, 'Not allowed']);
  expect(await state()).toEqual(before);
});
