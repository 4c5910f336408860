import { aComponent } from '@cp/db/testing';
import type { User } from '@cp/domain';
import { anUploadOf } from '../support/builders.js';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';
import { firstTable, linkNamed, linkWithRel, listedComponentIds } from '../support/html.js';
import { FormBrowser, signInThrough, type Page } from '../support/sign-in.js';

/*
 * An organization's components page over real HTTP: 20 a page, most recently updated first, pages
 * that neither skip nor repeat a row. (Seeding dozens of components takes seconds on PGlite: longer timeouts.)
 */

let stack: DashboardStack;
let now: Date;
beforeAll(async () => {
  stack = await startDashboardStack({ clock: { now: () => now } });
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

/** 2025-01-01 at `minute` past midnight, UTC. */
const minute = (m: number) => new Date(Date.UTC(2025, 0, 1, 0, m));

/** A new user (own organization), signed in, on their components page. */
async function anOwner(): Promise<{ user: User; browser: FormBrowser; list: (query?: string) => Promise<Page> }> {
  const user = await anAccount(stack.auth);
  const browser = new FormBrowser();
  await signInThrough(browser, stack.url, '/orgs', user);
  const list = (query = '') => browser.open(`${stack.url}/orgs/${user.defaultOrganizationId}/components${query}`);
  return { user, browser, list };
}

/** Opens page 1, then each "Next page" link until there is none. */
async function walkForward(browser: FormBrowser, first: Page): Promise<Page[]> {
  const pages = [first];
  for (let next = linkWithRel(first, 'next'); next !== null; next = linkWithRel(pages.at(-1)!, 'next')) {
    if (pages.length > 10) throw new Error('the pager never ends');
    pages.push(await browser.open(next));
  }
  return pages;
}

describe('pages', () => {
  test('45 components (some updated at the same instant): pages of 20, 20 and 5 through "Next page", every component exactly once, newest update first', async () => {
    const { user, browser, list } = await anOwner();
    // Three components per instant: the order between them is the database's to choose, but it must not change between pages.
    const updatedAt = new Map<string, number>();
    for (let i = 0; i < 45; i += 1) {
      const c = await aComponent(stack.domain.repos, { organizationId: user.defaultOrganizationId, createdBy: user.id, name: `Widget ${i}`, now: minute(Math.floor(i / 3)) });
      updatedAt.set(c.id, c.updatedAt.getTime());
    }

    const pages = await walkForward(browser, await list());
    const listed = pages.map(listedComponentIds);
    expect(listed.map((ids) => ids.length)).toEqual([20, 20, 5]);
    const all = listed.flat();
    expect(new Set(all).size).toBe(45);
    expect([...all].sort()).toEqual([...updatedAt.keys()].sort());
    const times = all.map((id) => updatedAt.get(id)!);
    expect(times).toEqual([...times].sort((a, b) => b - a));

    expect(pages.map((p) => /<span>Page (\d+)<\/span>/.exec(p.html)?.[1])).toEqual(['1', '2', '3']);
    expect(pages.map((p) => linkWithRel(p, 'prev'))).toEqual([null, `${pages[1]!.url.replace(/page=2$/, 'page=1')}`, pages[1]!.url]);
  }, 60_000);

  test('"Previous page" goes back to the same rows', async () => {
    const { user, browser, list } = await anOwner();
    for (let i = 0; i < 21; i += 1) await aComponent(stack.domain.repos, { organizationId: user.defaultOrganizationId, createdBy: user.id, now: minute(i % 2) });
    const first = await list();
    const second = await browser.open(linkWithRel(first, 'next')!);
    expect(listedComponentIds(second)).toHaveLength(1);
    expect(linkWithRel(second, 'next')).toBeNull();
    expect(listedComponentIds(await browser.open(linkWithRel(second, 'prev')!))).toEqual(listedComponentIds(first));
  });

  test('the pager keeps the search and the tag filter', async () => {
    const { user, browser, list } = await anOwner();
    const matching = new Set<string>();
    for (let i = 0; i < 23; i += 1) {
      const card = await aComponent(stack.domain.repos, { organizationId: user.defaultOrganizationId, createdBy: user.id, name: `Card ${i}`, tags: ['ui'], now: minute(i) });
      matching.add(card.id);
      // Newer than every card, so an unfiltered page 2 would differ.
      await aComponent(stack.domain.repos, { organizationId: user.defaultOrganizationId, createdBy: user.id, name: `Card ${i} (no tag)`, now: minute(100 + i) });
      await aComponent(stack.domain.repos, { organizationId: user.defaultOrganizationId, createdBy: user.id, name: `Banner ${i}`, tags: ['ui'], now: minute(200 + i) });
    }
    const pages = await walkForward(browser, await list('?q=card&tag=ui'));
    expect(new URL(pages[1]!.url).search).toBe('?q=card&tag=ui&page=2');
    expect(pages.map(listedComponentIds).map((ids) => ids.length)).toEqual([20, 3]);
    expect(new Set(pages.flatMap(listedComponentIds))).toEqual(matching);
  }, 60_000);

  test('a page past the end says so and links to the first page (not the empty-organization text)', async () => {
    const { user, browser, list } = await anOwner();
    await aComponent(stack.domain.repos, { organizationId: user.defaultOrganizationId, createdBy: user.id, now: minute(1) });
    const page = await list('?page=3');
    expect(page.status).toBe(200);
    expect(page.html).toContain('Page 3 is past the end of the list.');
    expect(page.html).not.toContain('This organization has no component yet.');
    expect(page.html).not.toContain('claude mcp add');
    expect(listedComponentIds(await browser.open(linkNamed(page, 'Go to the first page')!))).toHaveLength(1);
  });
});

describe('order: most recently updated first', () => {
  test('a component whose tags were edited, or which got a new variant, moves to the top', async () => {
    const { user, browser, list } = await anOwner();
    const org = user.defaultOrganizationId;
    const [a, b, c] = [
      await aComponent(stack.domain.repos, { organizationId: org, createdBy: user.id, name: 'Alpha', now: minute(1) }),
      await aComponent(stack.domain.repos, { organizationId: org, createdBy: user.id, name: 'Bravo', now: minute(2) }),
      await aComponent(stack.domain.repos, { organizationId: org, createdBy: user.id, name: 'Charlie', now: minute(3) }),
    ];
    const names = async () => firstTable(await list()).map((row) => row[0]);
    expect(await names()).toEqual(['Charlie', 'Bravo', 'Alpha']);

    // Tags saved on Alpha's page at 00:10.
    now = minute(10);
    const component = await browser.open(`${stack.url}/component/${a.id}`);
    const saved = await browser.submit(component, { tags: 'pricing' }, { action: /\/tags$/ });
    expect(saved.url).toBe(`${stack.url}/component/${a.id}?notice=tags`);
    expect(firstTable(await list())).toEqual([
      ['Alpha', 'pricing', '1', '2025-01-01 00:10 UTC'],
      ['Charlie', '', '1', '2025-01-01 00:03 UTC'],
      ['Bravo', '', '1', '2025-01-01 00:02 UTC'],
    ]);

    // A new variant of Bravo (a confirmed upload) at 00:20.
    await anUploadOf(stack.domain, b, { by: user, now: minute(20) });
    expect(firstTable(await list())).toEqual([
      ['Bravo', '', '2', '2025-01-01 00:20 UTC'],
      ['Alpha', 'pricing', '1', '2025-01-01 00:10 UTC'],
      ['Charlie', '', '1', '2025-01-01 00:03 UTC'],
    ]);
    expect(listedComponentIds(await list())).toEqual([b.id, a.id, c.id]);
  });
});
