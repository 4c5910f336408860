import { aComponent } from '@cp/db/testing';
import { publishVariant, type Component, type User, type Variant } from '@cp/domain';
import { anUploadOf } from '../support/builders.js';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';
import { tableAfter, textOf } from '../support/html.js';
import { FormBrowser, signInThrough, type Page } from '../support/sign-in.js';

/*
 * "Releases per week" on the component page over real HTTP: the twelve weeks that end with the
 * dashboard clock's week, from Monday (UTC), every environment counted, weeks without a release 0,
 * another component's releases not counted; drawn as an SVG image with a title and a description
 * and the same numbers in a table, without a script or a style attribute (the pages' CSP).
 */

let stack: DashboardStack;
let now: Date;
let owner: User;
let browser: FormBrowser;
let component: Component;
let another: Component;
let quiet: Component;
let v1: Variant;
let v2: Variant;
beforeAll(async () => {
  stack = await startDashboardStack({ clock: { now: () => now } });
  owner = await anAccount(stack.auth);
  const organizationId = owner.defaultOrganizationId;
  const at = new Date('2024-12-01T00:00:00.000Z');
  component = await aComponent(stack.domain.repos, { organizationId, createdBy: owner.id, name: 'Weekly', now: at });
  another = await aComponent(stack.domain.repos, { organizationId, createdBy: owner.id, name: 'Another', now: at });
  quiet = await aComponent(stack.domain.repos, { organizationId, createdBy: owner.id, name: 'Quiet', now: at });
  v1 = (await stack.domain.repos.variants.findLatest(component.id))!;
  v2 = await anUploadOf(stack.domain, component, { by: owner, now: at });

  await release('2024-12-22T23:59:59.999Z', 'staging'); // the Sunday before the first week shown
  await release('2024-12-23T00:00:00.000Z', 'staging'); // the first instant of the first week
  await release('2025-01-07T10:00:00.000Z', 'prod');
  await release('2025-02-16T23:59:59.999Z', 'staging', v2); // the last instant of a week
  await release('2025-02-17T00:00:00.000Z', 'prod', v2);
  await release('2025-03-10T08:00:00.000Z', 'staging');
  await release('2025-03-11T08:00:00.000Z', 'prod', v1); // a roll back
  await release('2025-03-11T09:00:00.000Z', 'staging', undefined, another);

  now = new Date('2025-03-12T12:00:00.000Z'); // a Wednesday
  browser = new FormBrowser();
  await signInThrough(browser, stack.url, '/orgs', owner);
}, 90_000);
afterAll(async () => {
  await stack?.close();
});

async function release(iso: string, environment: string, variant?: Variant, of = component): Promise<void> {
  now = new Date(iso);
  await publishVariant({ actor: { userId: owner.id }, componentId: of.id, environment, ...(variant ? { variantId: variant.id } : {}) }, stack.domain);
}

const open = (of: Component) => browser.open(`${stack.url}/component/${of.id}`);
/** The chart's markup: from its heading to the next one. */
const chartOf = (page: Page) => /<h2 id="releases-per-week">[\s\S]*?(?=<h2)/.exec(page.html)?.[0] ?? '';

test('the table under the chart: the last twelve weeks from Monday (UTC), releases to every environment, 0 for a week without one', async () => {
  const page = await open(component);
  expect(page.status).toBe(200);
  expect(tableAfter(page, 'Releases per week')).toEqual([
    ['2024-12-23', '1'],
    ['2024-12-30', '0'],
    ['2025-01-06', '1'],
    ['2025-01-13', '0'],
    ['2025-01-20', '0'],
    ['2025-01-27', '0'],
    ['2025-02-03', '0'],
    ['2025-02-10', '1'],
    ['2025-02-17', '1'],
    ['2025-02-24', '0'],
    ['2025-03-03', '0'],
    ['2025-03-10 (this week)', '2'],
  ]);
  expect(tableAfter(await open(another), 'Releases per week').at(-1)).toEqual(['2025-03-10 (this week)', '1']);
});

test('the chart is one image with a title and a description, drawn without a script or a style attribute', async () => {
  const chart = chartOf(await open(component));
  expect(chart).toContain('<svg role="img" aria-labelledby="releases-per-week-chart-title" aria-describedby="releases-per-week-chart-desc"');
  expect(textOf(/<title id="releases-per-week-chart-title">([\s\S]*?)<\/title>/.exec(chart)?.[1] ?? '')).toBe('Releases per week');
  expect(textOf(/<desc id="releases-per-week-chart-desc">([\s\S]*?)<\/desc>/.exec(chart)?.[1] ?? '')).toBe(
    '6 releases in the last 12 weeks (from 2024-12-23); the most, 2, in the week from 2025-03-10.',
  );
  // A bar for each week with a release, its height in proportion (the busiest week the full height).
  expect([...chart.matchAll(/<rect class="bar"[^>]* height="([\d.]+)"/g)].map((m) => Number(m[1]))).toEqual([56, 56, 56, 56, 112]);
  expect(chart).toContain('<summary>Releases per week as a table</summary>');
  expect(chart).not.toMatch(/<script\b|\sstyle=|\son[a-z]+=/i);
});

test('a component without a release in those weeks says so', async () => {
  const chart = chartOf(await open(quiet));
  expect(textOf(/<desc[^>]*>([\s\S]*?)<\/desc>/.exec(chart)?.[1] ?? '')).toBe('No release in the last 12 weeks (from 2024-12-23).');
  expect(chart).not.toContain('<rect');
});
