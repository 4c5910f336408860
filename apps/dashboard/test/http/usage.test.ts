import { aComponent } from '@cp/db/testing';
import { publishVariant, type Component, type UsageEvent, type User, type Variant } from '@cp/domain';
import { aComponentWithVariants, aMembership } from '../support/builders.js';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';
import { linkNamed, tableAfter, textOf } from '../support/html.js';
import { headline, signedInBrowser, type Page, type SignedInBrowser } from '../support/sign-in.js';
import { aUsageEvent, recordUsage, usageEvents } from '../support/usage-rows.js';

/*
 * The usage pages over real HTTP on a real database: rows written as the ingest, the delivery API
 * and the worker write them, read back through the dashboard. A component with two variants across
 * a release in prod (and a roll back in staging): each variant's figures, the release markers on
 * the charts, the top errors with a message that holds HTML; the empty states; the organization's
 * overview; who may read it (the stranger's 404 is other-organization.test.ts's, for every route).
 */

const NOW = new Date('2031-06-10T12:30:20.000Z');
const hoursAgo = (n: number) => new Date(NOW.getTime() - n * 3_600_000);
const minutesAgo = (n: number) => new Date(NOW.getTime() - n * 60_000);
const HOSTILE = `<img src=x onerror="alert(1)">Cannot read 'price' & more`;

let stack: DashboardStack;
let now: Date;
let owner: User;
let viewer: User;
let component: Component;
let quiet: Component;
let servedOnly: Component;
let v1: Variant;
let v2: Variant;
let asOwner: SignedInBrowser;

beforeAll(async () => {
  stack = await startDashboardStack({ clock: { now: () => now } });
  [owner, viewer] = [await anAccount(stack.auth), await anAccount(stack.auth)];
  await aMembership(stack.db, viewer, owner.defaultOrganizationId, 'viewer');
  const made = await aComponentWithVariants(stack.domain, owner, 2, { name: 'Price tag' });
  [component, v1, v2] = [made.component, made.variants[0]!, made.variants[1]!];
  const organizationId = owner.defaultOrganizationId;
  quiet = await aComponent(stack.domain.repos, { organizationId, createdBy: owner.id, name: 'Quiet' });
  servedOnly = await aComponent(stack.domain.repos, { organizationId, createdBy: owner.id, name: 'Fetched only' });

  const release = async (at: Date, environment: string, variant: Variant) => {
    now = at;
    await publishVariant({ actor: { userId: owner.id }, componentId: component.id, environment, variantId: variant.id }, stack.domain);
  };
  await release(hoursAgo(20), 'prod', v1);
  await release(hoursAgo(10), 'prod', v2);
  await release(hoursAgo(9), 'staging', v2);
  await release(hoursAgo(3), 'staging', v1); // a roll back
  now = NOW;

  const of = (variant: Variant, at: Date, over: Partial<UsageEvent> = {}) => aUsageEvent({ componentId: component.id, variantId: variant.id, at, ...over });
  const minuteOf = (at: Date) => new Date(Math.floor(at.getTime() / 60_000) * 60_000);
  const error = (errorClass: string, message: string, stackHash: string) => ({ type: 'error' as const, name: 'uncaught', value: null, error: { errorClass, message, stackHash } });
  await recordUsage(stack.db, {
    now: NOW,
    events: [
      ...usageEvents(120, of(v1, hoursAgo(15))),
      ...usageEvents(2, of(v1, hoursAgo(15), error('TypeError', HOSTILE, 'aaaa1111'))),
      ...usageEvents(80, of(v2, hoursAgo(6), { value: 200 })),
      ...usageEvents(20, of(v2, hoursAgo(6), error('RangeError', 'Invalid array length', 'bbbb2222'))),
      ...usageEvents(100, of(v2, hoursAgo(6), { type: 'load', name: 'consume', value: 30 })),
      ...usageEvents(10, of(v2, hoursAgo(5), { environment: 'staging', value: 200 })),
      // In the minutes not yet rolled up into an hour.
      ...usageEvents(20, of(v2, minutesAgo(25), { value: 200 })),
    ],
    served: [
      { minute: minuteOf(hoursAgo(15)), componentId: component.id, environment: 'prod', variantId: v1.id, count: 50 },
      { minute: minuteOf(hoursAgo(6)), componentId: component.id, environment: 'prod', variantId: v2.id, count: 90 },
      { minute: minuteOf(minutesAgo(5)), componentId: servedOnly.id, environment: 'prod', variantId: (await stack.domain.repos.variants.findLatest(servedOnly.id))!.id, count: 7 },
    ],
  });
  asOwner = await signedInBrowser(stack.url, '/orgs', owner);
}, 90_000);
afterAll(async () => {
  await stack?.close();
});

const usageOf = (browser: SignedInBrowser, of: Component, search = '') => browser.get(`/component/${of.id}/usage${search}`);
/** The releases listed under the charts, oldest first. */
const releasesOf = (page: Page) => [...(/<ol class="releases">([\s\S]*?)<\/ol>/.exec(page.html)?.[1] ?? '').matchAll(/<li>([\s\S]*?)<\/li>/g)].map((m) => textOf(m[1] ?? ''));

test('a component over 24 hours: figures by environment and by variant equal the rollups written, percentiles within their histogram bucket', async () => {
  const page = await usageOf(asOwner, component, '?window=24h');
  expect(page.status).toBe(200);
  expect(page.html).toContain(`<a href="/component/${component.id}/usage?window=24h" aria-current="page">24 hours</a>`);
  expect(page.html).toContain(`<a href="/component/${component.id}/usage?window=24h" aria-current="page">All environments</a>`);
  // p50 / p75 / p99: 12 ms renders fall in the bucket [11.3, 16) ms, shown as its geometric middle; 200 ms ones in [181, 256).
  expect(tableAfter(page, 'By environment')).toEqual([
    ['prod', '140', '100', '220', '22', '9.1 %', '13 ms / 215 ms / 215 ms'],
    ['staging', '0', '0', '10', '0', '0.0 %', '215 ms / 215 ms / 215 ms'],
    ['All environments', '140', '100', '230', '22', '8.7 %', '13 ms / 215 ms / 215 ms'],
  ]);
  expect(tableAfter(page, 'By variant')).toEqual([
    ['v2', 'prod', '90', '100', '100', '20', '16.7 %', '215 ms / 215 ms / 215 ms'],
    ['v1', 'prod', '50', '0', '120', '2', '1.6 %', '13 ms / 13 ms / 13 ms'],
    ['v2', 'staging', '0', '0', '10', '0', '0.0 %', '215 ms / 215 ms / 215 ms'],
  ]);
});

test('the charts: a line per variant, every publish and roll back of the window marked and named, the same numbers in tables', async () => {
  const page = await usageOf(asOwner, component, '?window=24h');
  expect(releasesOf(page)).toEqual([
    'prod: v1 released, 2031-06-09 16:30 UTC',
    'prod: v2 released (replacing v1), 2031-06-10 02:30 UTC',
    'staging: v2 released, 2031-06-10 03:30 UTC',
    'staging: rolled back to v1 (from v2), 2031-06-10 09:30 UTC',
  ]);
  const renders = tableAfter(page, 'Renders');
  expect(renders).toHaveLength(25);
  const row = (at: string) => renders.find((cells) => cells[0] === at);
  // Columns: the hour, v2 in prod, v1 in prod, v2 in staging, the releases in that hour.
  expect([row('2031-06-09 21:00'), row('2031-06-10 02:00'), row('2031-06-10 06:00'), row('2031-06-10 07:00'), row('2031-06-10 12:00')]).toEqual([
    ['2031-06-09 21:00', '0', '120', '0', ''],
    ['2031-06-10 02:00', '0', '0', '0', '2: prod: v2 released (replacing v1)'],
    ['2031-06-10 06:00', '80', '0', '0', ''],
    ['2031-06-10 07:00', '0', '0', '10', ''],
    ['2031-06-10 12:00', '20', '0', '0', ''],
  ]);
  expect(tableAfter(page, 'Errors').find((cells) => cells[0] === '2031-06-10 06:00')).toEqual(['2031-06-10 06:00', '20', '0', '0', '']);
  expect(tableAfter(page, 'Render time, 75th percentile').find((cells) => cells[0] === '2031-06-09 21:00')).toEqual(['2031-06-09 21:00', '—', '13 ms', '—', '']);

  const chart = /<h3 id="renders-chart-heading">[\s\S]*?(?=<h3)/.exec(page.html)?.[0] ?? '';
  expect(chart).toContain('<svg role="img" aria-labelledby="renders-chart-title" aria-describedby="renders-chart-desc"');
  expect(textOf(/<desc id="renders-chart-desc">([\s\S]*?)<\/desc>/.exec(chart)?.[1] ?? '')).toBe(
    'Renders per hour over the last 24 hours, a line per variant: v2 in prod 100 in all, v1 in prod 120 in all, v2 in staging 10 in all. ' +
      '4 releases marked: 1, prod: v1 released at 2031-06-09 16:30 UTC; 2, prod: v2 released (replacing v1) at 2031-06-10 02:30 UTC; ' +
      '3, staging: v2 released at 2031-06-10 03:30 UTC; 4, staging: rolled back to v1 (from v2) at 2031-06-10 09:30 UTC.',
  );
  expect([...chart.matchAll(/<text class="mark-label"[^>]*>(\d+)<\/text>/g)].map((m) => m[1])).toEqual(['1', '2', '3', '4']);
  expect([...chart.matchAll(/<g class="line-(\d)">/g)].map((m) => m[1])).toEqual(['1', '2', '3']);
  expect(chart).not.toMatch(/<script\b|\sstyle=|\son[a-z]+=/i);
  expect(page.html).not.toMatch(/<script\b|\sstyle=/i);
});

test('top errors by stack hash, the message escaped', async () => {
  const page = await usageOf(asOwner, component, '?window=24h');
  expect(tableAfter(page, 'Top errors').map((cells) => cells.slice(0, 4))).toEqual([
    ['RangeError bbbb2222', 'Invalid array length', 'v2 in prod', '20'],
    ['TypeError aaaa1111', HOSTILE, 'v1 in prod', '2'],
  ]);
  expect(page.html).toContain('<td>&lt;img src=x onerror=&quot;alert(1)&quot;&gt;Cannot read &#39;price&#39; &amp; more</td>');
  expect(page.html).not.toContain('<img src=x');
});

test('one environment; another window; a window or an environment that is none: 400 saying what to do', async () => {
  const staging = await usageOf(asOwner, component, '?window=7d&environment=staging');
  expect(tableAfter(staging, 'By environment')).toEqual([['staging', '0', '0', '10', '0', '0.0 %', '215 ms / 215 ms / 215 ms']]);
  // v1 was never measured in staging: the roll back still names it.
  expect(releasesOf(staging)).toEqual(['staging: v2 released, 2031-06-10 03:30 UTC', 'staging: rolled back to v1 (from v2), 2031-06-10 09:30 UTC']);
  expect(staging.html).toContain(`<a href="/component/${component.id}/usage?window=7d&amp;environment=staging" aria-current="page">staging</a>`);
  expect(staging.html).toContain(`<a href="/component/${component.id}/usage?window=30d&amp;environment=staging">30 days</a>`);

  const badWindow = await usageOf(asOwner, component, '?window=90d');
  expect({ status: badWindow.status, ...headline(badWindow) }).toEqual({
    status: 400,
    title: 'That did not work',
    message: 'window: "90d" is not a window: choose 24h, 7d or 30d from the links on the usage page.',
  });
  const badEnvironment = await usageOf(asOwner, component, '?environment=qa');
  expect({ status: badEnvironment.status, ...headline(badEnvironment) }).toEqual({
    status: 400,
    title: 'That did not work',
    message: 'environment: "qa" is not an environment of this organization: choose one from the links on the usage page.',
  });
});

test('nothing reported: how host pages report, and what the delivery API counted meanwhile', async () => {
  const none = textOf(/<div class="notice" role="status">([\s\S]*?)<\/div>/.exec((await usageOf(asOwner, quiet)).html)?.[1] ?? '');
  expect(none).toContain('No usage reported in the last 7 days. The delivery API served it to no host page in the last 7 days either');
  expect(none).toMatch(/docs\/host-sdk\.md\s*, section "Usage analytics"/);
  const fetched = textOf(/<div class="notice" role="status">([\s\S]*?)<\/div>/.exec((await usageOf(asOwner, servedOnly)).html)?.[1] ?? '');
  expect(fetched).toContain('The delivery API served it 7 times in the last 7 days, so hosts fetch it but render it without the host SDK');
});

test("the organization's overview: busiest components and an error rate that rose with the last release, each linking to its usage", async () => {
  const page = await asOwner.get(`/orgs/${owner.defaultOrganizationId}/usage`);
  expect(page.status).toBe(200);
  expect(page.html).toContain(`<a href="/orgs/${owner.defaultOrganizationId}/usage" aria-current="page">Usage</a>`);
  // The overview adds the daily totals, which hold the hours the worker rolled up: not the current one.
  expect(tableAfter(page, 'Error rate rose since the last release')).toEqual([['Price tag', 'prod', 'v2, 2031-06-10 02:30 UTC', '20.0 % (20 of 100)', 'v1: 1.6 % (2 of 122)']]);
  // "Fetched only" was served in the current hour only.
  expect(tableAfter(page, 'Busiest components')).toEqual([['Price tag', '140', '100', '210', '22', '9.5 %']]);
  expect(linkNamed(page, 'Price tag')).toBe(`${stack.url}/component/${component.id}/usage?window=7d`);
});

test('a viewer reads the figures; the component page links to them', async () => {
  const asViewer = await signedInBrowser(stack.url, `/component/${component.id}`, viewer);
  expect(/<nav class="choices" aria-label="Component">[\s\S]*?<\/nav>/.exec(asViewer.page.html)?.[0]).toContain(`<a href="/component/${component.id}/usage">Usage</a>`);
  const page = await usageOf(asViewer, component, '?window=24h');
  expect(page.status).toBe(200);
  expect(tableAfter(page, 'By variant').map((cells) => cells.slice(0, 5))).toEqual([
    ['v2', 'prod', '90', '100', '100'],
    ['v1', 'prod', '50', '0', '120'],
    ['v2', 'staging', '0', '0', '10'],
  ]);
  expect((await asViewer.get(`/orgs/${owner.defaultOrganizationId}/usage?window=30d`)).status).toBe(200);
});
