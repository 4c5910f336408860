import { aComponent } from '@cp/db/testing';
import type { Component, User, Variant } from '@cp/domain';
import { aMembership, anUploadOf } from '../support/builders.js';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';
import { linkNamed, tableAfter, timesAfter } from '../support/html.js';
import { FormBrowser, headline, signInThrough, type Page } from '../support/sign-in.js';

/*
 * The component page over real HTTP: the variants table (sequence, size, sha256, who, when), the host
 * SDK snippets, and the release history after publishing and rolling back through the confirmation
 * step (which variant, which environment, what it replaced, who, when, newest first). The dashboard's
 * clock is the test's.
 */

/** The delivery API's public URL, with a path whose `&` must be escaped in the page's HTML. */
const DELIVERY = 'https://cdn.example.com/delivery&co';

let stack: DashboardStack;
let now: Date;
let owner: User;
let member: User;
let ownerBrowser: FormBrowser;
let memberBrowser: FormBrowser;
let component: Component;
let variants: Variant[];
beforeAll(async () => {
  stack = await startDashboardStack({ clock: { now: () => now }, config: { deliveryUrl: DELIVERY } });
  owner = await anAccount(stack.auth);
  member = await anAccount(stack.auth);
  // An admin: prod is protected, and this member rolls it back (members are refused there: protected-environments.test.ts).
  await aMembership(stack.db, member, owner.defaultOrganizationId, 'admin');
  component = await aComponent(stack.domain.repos, { organizationId: owner.defaultOrganizationId, createdBy: owner.id, name: 'Price tag', now: at(1, 5) });
  const v1 = (await stack.domain.repos.variants.findLatest(component.id))!;
  variants = [v1, await anUploadOf(stack.domain, component, { by: member, now: at(2, 30), size: 2048 }), await anUploadOf(stack.domain, component, { by: owner, now: at(3, 45), size: 1_536_000 })];
  ownerBrowser = new FormBrowser();
  memberBrowser = new FormBrowser();
  await signInThrough(ownerBrowser, stack.url, '/orgs', owner);
  await signInThrough(memberBrowser, stack.url, '/orgs', member);
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

/** 2025-03-01 at `hour`:`minute` UTC, plus `seconds` (not shown: the page shows minutes). */
function at(hour: number, minute: number, seconds = 0): Date {
  return new Date(Date.UTC(2025, 2, 1, hour, minute, seconds));
}
const open = (browser: FormBrowser) => browser.open(`${stack.url}/component/${component.id}`);
const environmentRow = (page: Page, name: string) => tableAfter(page, 'Environments').find((row) => row[0] === name);

/** From the component page: the link in the environment's row, the confirmation page, its button. */
async function release(browser: FormBrowser, link: string, expected: { title: string; button: string }): Promise<Page> {
  const page = await open(browser);
  const href = linkNamed(page, link);
  if (href === null) throw new Error(`no link "${link}" on the component page`);
  const confirm = await browser.open(href);
  expect(headline(confirm).title).toBe(expected.title);
  expect(confirm.html).toContain(`<button type="submit">${expected.button}</button>`);
  const done = await browser.submit(confirm, {}, { action: /\/publish$/ });
  expect([done.status, done.url]).toEqual([200, `${stack.url}/component/${component.id}?notice=published`]);
  return done;
}

test('variants: newest first, each with its sequence, size, sha256, uploader and upload time', async () => {
  const page = await open(ownerBrowser);
  expect(tableAfter(page, 'Variants').map((row) => row.slice(0, 6))).toEqual([
    ['v3', '1.46 MiB', variants[2]!.sha256, owner.email, '2025-03-01 03:45 UTC', '—'],
    ['v2', '2.0 KiB', variants[1]!.sha256, member.email, '2025-03-01 02:30 UTC', '—'],
    ['v1', '1.0 KiB', variants[0]!.sha256, owner.email, '2025-03-01 01:05 UTC', '—'],
  ]);
  expect(timesAfter(page, 'Variants')).toEqual([[at(3, 45).toISOString()], [at(2, 30).toISOString()], [at(1, 5).toISOString()]]);
  expect(new Set(variants.map((v) => v.sha256)).size).toBe(3);
  expect(page.html).toContain('<p class="hint">Nothing released yet.</p>');
});

test('"Show it on a web page": for each environment and the preview, the snippet to paste and the demo page, escaped', async () => {
  const page = await open(memberBrowser);
  const environments = tableAfter(page, 'Environments').map((row) => row[0]!);
  expect([...environments].sort()).toEqual(['prod', 'staging']);
  const script = `<script type="module" src="${DELIVERY}/host/v1.js"></script>`;
  const element = (target: string) => `<cp-component component-id="${component.id}" ${target}></cp-component>`;
  expect(tableAfter(page, 'Show it on a web page')).toEqual([
    ...environments.map((env) => [env, `${script} ${element(`env="${env}"`)} Nothing released here yet: until a release, the element shows its error slot.`, `Demo of ${env}`]),
    ['Preview (latest variant)', `${script} ${element('preview')}`, 'Demo of the preview'],
  ]);

  // Shown as text, never as markup: the page itself holds no script and no element.
  expect(page.html).toContain(
    `<pre><code>&lt;script type=&quot;module&quot; src=&quot;https://cdn.example.com/delivery&amp;co/host/v1.js&quot;&gt;&lt;/script&gt;\n&lt;cp-component component-id=&quot;${component.id}&quot; env=&quot;prod&quot;&gt;&lt;/cp-component&gt;</code></pre>`,
  );
  expect(page.html).not.toMatch(/<(script|cp-component)\b/i);
  expect(page.html).toContain(`<a href="https://cdn.example.com/delivery&amp;co/examples/host?component=${component.id}&amp;env=prod">Demo of prod</a>`);

  // Each demo link: the delivery API's demo page, for that environment or the preview.
  const demo = (label: string) => {
    const url = new URL(linkNamed(page, label) ?? 'about:blank');
    return [`${url.origin}${url.pathname}`, Object.fromEntries(url.searchParams)];
  };
  for (const env of environments) expect(demo(`Demo of ${env}`)).toEqual([`${DELIVERY}/examples/host`, { component: component.id, env }]);
  expect(demo('Demo of the preview')).toEqual([`${DELIVERY}/examples/host`, { component: component.id, preview: 'true' }]);
});

test('release history after publishing and rolling back: which variant, where, what it replaced, who, when, newest first', async () => {
  now = at(10, 0, 7);
  // The member publishes v2 to staging from the variants table ("Publish…", then choosing the environment).
  const publishV2 = `/component/${component.id}/publish?variant=${variants[1]!.id}`;
  expect((await open(memberBrowser)).html).toContain(`<a href="${publishV2}">Publish…</a>`);
  const confirm = await memberBrowser.open(`${stack.url}${publishV2}`);
  expect(headline(confirm).title).toBe('Publish Price tag v2?');
  const published = await memberBrowser.submit(confirm, { environment: 'staging' }, { action: /\/publish$/ });
  expect([published.status, published.url]).toEqual([200, `${stack.url}/component/${component.id}?notice=published`]);

  now = at(10, 5);
  await release(ownerBrowser, 'Publish v3', { title: 'Publish Price tag v3?', button: 'Publish prod to v3' });
  now = at(10, 6);
  await release(ownerBrowser, 'Publish v3', { title: 'Publish Price tag v3?', button: 'Publish staging to v3' });
  now = at(11, 30);
  // prod's first release replaced nothing: its roll back offers the variant before it.
  expect(environmentRow(await open(ownerBrowser), 'prod')).toEqual(['prod', 'v3 since 2025-03-01 10:05 UTC', 'none Experience Rollout', 'Roll back to v2']);
  await release(memberBrowser, 'Roll back to v2', { title: 'Roll back Price tag v2?', button: 'Roll back prod to v2' });

  const after = await open(ownerBrowser);
  expect(tableAfter(after, 'Release history')).toEqual([
    ['2025-03-01 11:30 UTC', 'prod', 'v2', 'v3', member.email],
    ['2025-03-01 10:06 UTC', 'staging', 'v3', 'v2', owner.email],
    ['2025-03-01 10:05 UTC', 'prod', 'v3', '—', owner.email],
    ['2025-03-01 10:00 UTC', 'staging', 'v2', '—', member.email],
  ]);
  expect(timesAfter(after, 'Release history').flat()).toEqual([at(11, 30), at(10, 6), at(10, 5), at(10, 0, 7)].map((d) => d.toISOString()));

  // What each environment serves now, and where each variant is live.
  // After a roll back, "Roll back" goes further back (v1), never "back" to the newer v3 it replaced: that is "Publish v3".
  expect(environmentRow(after, 'prod')).toEqual(['prod', 'v2 since 2025-03-01 11:30 UTC', 'none Experience Rollout', 'Publish v3 Roll back to v1']);
  expect(environmentRow(after, 'staging')).toEqual(['staging', 'v3 since 2025-03-01 10:06 UTC', 'none Experience Rollout', 'Roll back to v2']);
  expect(tableAfter(after, 'Variants').map((row) => [row[0], row[5]])).toEqual([['v3', 'staging'], ['v2', 'prod'], ['v1', '—']]);
  expect(tableAfter(after, 'Show it on a web page').map((row) => row[1]!.includes('Nothing released here yet'))).toEqual([false, false, false]);

  // The page says what the database holds.
  const current = await stack.domain.repos.releases.listCurrent(component.id);
  const envs = await stack.domain.repos.environments.listForOrganization(owner.defaultOrganizationId);
  expect(current.map((r) => [envs.find((e) => e.id === r.environmentId)!.name, r.variantId])).toEqual([['prod', variants[1]!.id], ['staging', variants[2]!.id]]);
});
