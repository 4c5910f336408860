import { released } from '@cp/domain/testing';
import { aComponent } from '@cp/db/testing';
import { publishVariant, type Component, type User, type Variant } from '@cp/domain';
import { anUploadOf } from '../support/builders.js';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';
import { linkNamed, tableAfter } from '../support/html.js';
import { FormBrowser, headline, signInThrough, type Page } from '../support/sign-in.js';

/*
 * The component page's two long lists over real HTTP, with small pages (3 variants, 4 release events)
 * so a few items make several pages: "Older …" to the end with every item exactly once and in order,
 * "Newer …" and "Latest …" back, each list keeping the other's position, pages that stay put while
 * new items arrive (keyset), and bad cursors: 400 or 404, never a 500.
 */

const SIZES = { variants: 3, releaseEvents: 4 };

let stack: DashboardStack;
let now: Date;
let owner: User;
let browser: FormBrowser;
let component: Component;
/** v1..v8, oldest first. */
let variants: Variant[];
/** The release history as published: each event's row as the page shows it, oldest first. */
let published: string[][];
beforeAll(async () => {
  stack = await startDashboardStack({ clock: { now: () => now }, config: { componentPageSizes: SIZES } });
  owner = await anAccount(stack.auth);
  component = await aComponent(stack.domain.repos, { organizationId: owner.defaultOrganizationId, createdBy: owner.id, name: 'Long history', now: at(1) });
  variants = [(await stack.domain.repos.variants.findLatest(component.id))!];
  for (let i = 2; i <= 8; i += 1) variants.push(await anUploadOf(stack.domain, component, { by: owner, now: at(i) }));
  // Ten releases, staging and prod in turn, two at each minute (the later one listed first).
  published = [];
  const serving = new Map<string, string>();
  for (let i = 0; i < 10; i += 1) {
    now = at(20 + Math.floor(i / 2));
    published.push(await release(i % 2 === 0 ? 'staging' : 'prod', variants[(i * 3) % 8]!, serving));
  }
  browser = new FormBrowser();
  await signInThrough(browser, stack.url, '/orgs', owner);
}, 90_000);
afterAll(async () => {
  await stack?.close();
});

/** 2025-03-01 at 10:`minute` UTC. */
function at(minute: number): Date {
  return new Date(Date.UTC(2025, 2, 1, 10, minute));
}
const shown = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const sequence = (variant: Variant) => `v${variant.sequence}`;

/** Publishes `variant` to `environment` at `now`; the history row the page should show for it. */
async function release(environment: string, variant: Variant, serving: Map<string, string>): Promise<string[]> {
  await publishVariant({ actor: { userId: owner.id }, componentId: component.id, environment, variantId: variant.id }, stack.domain);
  const row = [shown(now), environment, sequence(variant), serving.get(environment) ?? '—', owner.email];
  serving.set(environment, sequence(variant));
  return row;
}

const open = (path = '') => browser.open(`${stack.url}/component/${component.id}${path}`);
const variantRows = (page: Page) => tableAfter(page, 'Variants').map((row) => row[0]);
const historyRows = (page: Page) => tableAfter(page, 'Release history');
const outcome = (page: Page) => ({ status: page.status, ...headline(page) });
const search = (href: string | null) => (href === null ? null : Object.fromEntries(new URL(href).searchParams));
/** Follows the link named `name`; fails when the page has none. */
async function follow(page: Page, name: string): Promise<Page> {
  const href = linkNamed(page, name);
  if (href === null) throw new Error(`no link "${name}" on ${page.url}`);
  return browser.open(href);
}
/** From `first`, the pages reached by following `name` until it is gone. */
async function walk(first: Page, name: string): Promise<Page[]> {
  const pages = [first];
  while (linkNamed(pages.at(-1)!, name) !== null) {
    if (pages.length > 10) throw new Error(`"${name}" never ends`);
    pages.push(await follow(pages.at(-1)!, name));
  }
  return pages;
}

describe('variants', () => {
  test('"Older variants" to the end: pages of 3, every variant once, newest first; "Newer" and "Latest" back', async () => {
    const latest = await open();
    expect([linkNamed(latest, 'Newer variants'), linkNamed(latest, 'Latest variants')]).toEqual([null, null]);
    const pages = await walk(latest, 'Older variants');
    expect(pages.map(variantRows)).toEqual([['v8', 'v7', 'v6'], ['v5', 'v4', 'v3'], ['v2', 'v1']]);

    const back = await walk(pages[2]!, 'Newer variants');
    expect(back.map(variantRows)).toEqual([['v2', 'v1'], ['v5', 'v4', 'v3'], ['v8', 'v7', 'v6']]);
    // The newest page is the latest one: its URL has no cursor.
    expect(search(back[2]!.url)).toEqual({});
    const fromLast = await follow(pages[2]!, 'Latest variants');
    expect([search(fromLast.url), variantRows(fromLast)]).toEqual([{}, ['v8', 'v7', 'v6']]);
  });

  test('the environments, the preview of the latest variant and the release history stay as on the latest page', async () => {
    const latest = await open();
    const older = await follow(latest, 'Older variants');
    expect(tableAfter(older, 'Environments')).toEqual(tableAfter(latest, 'Environments'));
    expect(historyRows(older)).toEqual(historyRows(latest));
    expect(older.html).toContain(`<h2 id="preview">Preview of v8</h2>`);
  });

  test('a variant on no page shown is still previewed', async () => {
    const page = await open(`?variant=${variants[0]!.id}`);
    expect(variantRows(page)).not.toContain('v1');
    expect(page.html).toContain(`<h2 id="preview">Preview of v1</h2>
<iframe class="preview" sandbox="allow-scripts" src="/component/${component.id}/variants/${variants[0]!.id}/preview"`);
  });

  test('a page stays put while new variants are uploaded (keyset by sequence)', async () => {
    const second = await follow(await open(), 'Older variants');
    await anUploadOf(stack.domain, component, { by: owner, now: at(50) });
    expect(variantRows(await browser.open(second.url))).toEqual(['v5', 'v4', 'v3']);
    expect(variantRows(await open())).toEqual(['v9', 'v8', 'v7']);
  });
});

describe('release history', () => {
  test('"Older release events" to the end: pages of 4, every event once, newest first (the later of two at one minute first)', async () => {
    const latest = await open();
    expect([linkNamed(latest, 'Newer release events'), linkNamed(latest, 'Latest release events')]).toEqual([null, null]);
    const pages = await walk(latest, 'Older release events');
    const newestFirst = [...published].reverse();
    expect(pages.map(historyRows)).toEqual([newestFirst.slice(0, 4), newestFirst.slice(4, 8), newestFirst.slice(8)]);
    // Variants on no variants page shown are still named by their number.
    expect(pages[2]!.html).not.toContain('an unknown variant');

    const back = await walk(pages[2]!, 'Newer release events');
    expect(back.map(historyRows)).toEqual([newestFirst.slice(8), newestFirst.slice(4, 8), newestFirst.slice(0, 4)]);
    expect(search(back[2]!.url)).toEqual({});
    expect(historyRows(await follow(pages[2]!, 'Latest release events'))).toEqual(newestFirst.slice(0, 4));
  });

  test('a page stays put while new releases are made (keyset by event)', async () => {
    const second = await follow(await open(), 'Older release events');
    const before = historyRows(second);
    now = at(55);
    const serving = new Map([['staging', historyRows(await open()).find((row) => row[1] === 'staging')![2]!]]);
    const row = await release('staging', variants[0]!, serving);
    published.push(row);
    expect(historyRows(await browser.open(second.url))).toEqual(before);
    expect(historyRows(await open())[0]).toEqual(row);
  });
});

test('each list keeps the other\'s position, and the preview, in its links', async () => {
  const v2 = variants[1]!;
  const olderVariants = await follow(await open(`?variant=${v2.id}`), 'Older variants');
  const both = await follow(olderVariants, 'Older release events');
  const params = search(both.url)!;
  expect(params).toEqual({ variant: v2.id, variants_before: expect.stringMatching(/^\d+$/), releases_before: expect.any(String) });
  expect(variantRows(both)).toEqual(variantRows(olderVariants));
  expect(both.html).toContain(`<h2 id="preview">Preview of v2</h2>`);
  expect(historyRows(both)).toEqual(historyRows(await follow(await open(), 'Older release events')));
  expect(search(linkNamed(both, 'Latest variants'))).toEqual({ variant: v2.id, releases_before: params.releases_before });
  expect(search(linkNamed(both, 'Latest release events'))).toEqual({ variant: v2.id, variants_before: params.variants_before });
});

describe('bad cursors: 400 or 404, never a 500', () => {
  const NOT_FOUND = { status: 404, title: 'Not found', message: 'There is nothing here, or it is not in one of your organizations.' };

  test.each(['abc', '0', '-1', '1.5', '1e3', ' 2'])('variants_before=%s: 400 naming the parameter', async (value) => {
    expect(outcome(await open(`?variants_before=${encodeURIComponent(value)}`))).toEqual({
      status: 400,
      title: 'That did not work',
      message: `variants_before: "${value}" is not a variant number (1, 2, 3…): follow "Older variants" from the component page.`,
    });
  });

  test('variants_before past every variant (even past what the database column holds): the latest variants', async () => {
    for (const value of ['100', '2147483648', '999999999999999']) {
      const page = await open(`?variants_before=${value}`);
      expect([page.status, variantRows(page)]).toEqual([200, variantRows(await open())]);
    }
  });

  test('variants_before=1: nothing older, said so, with the way back', async () => {
    const page = await open('?variants_before=1');
    expect(page.status).toBe(200);
    expect(page.html).toContain('<p>No older variant.</p>');
    expect(search(linkNamed(page, 'Latest variants'))).toEqual({});
  });

  test('a release event cursor that is unknown, malformed or another component\'s: 404, like any unknown id', async () => {
    const other = await aComponent(stack.domain.repos, { organizationId: owner.defaultOrganizationId, createdBy: owner.id, name: 'Other' });
    const othersEvent = released(await publishVariant({ actor: { userId: owner.id }, componentId: other.id, environment: 'prod' }, stack.domain)).event.id;
    for (const cursor of ['0f8fad5b-d9cb-469f-a165-70867728950e', 'not-an-id', othersEvent]) {
      expect(outcome(await open(`?releases_before=${cursor}`))).toEqual(NOT_FOUND);
      expect(outcome(await open(`?releases_after=${cursor}`))).toEqual(NOT_FOUND);
    }
  });

  test('both releases_before and releases_after: 400', async () => {
    const [event] = await stack.domain.repos.releases.history(component.id, { limit: 1 });
    expect(outcome(await open(`?releases_before=${event!.id}&releases_after=${event!.id}`))).toMatchObject({ status: 400, title: 'That did not work' });
  });
});
