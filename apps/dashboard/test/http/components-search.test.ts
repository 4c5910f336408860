import { aComponent } from '@cp/db/testing';
import type { User } from '@cp/domain';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';
import { linkNamed, listedComponentIds, textOf } from '../support/html.js';
import { FormBrowser, signInThrough, type Page } from '../support/sign-in.js';

/* Search by name (substring, any case, "%" and "_" literal) and filter by tag (exact) on the components page, over real HTTP. */

let stack: DashboardStack;
let user: User;
let browser: FormBrowser;
const names = new Map<string, string>();
beforeAll(async () => {
  stack = await startDashboardStack();
  user = await anAccount(stack.auth);
  const components: [string, string[]][] = [
    ['100% Banner', ['50%', 'promo']],
    ['Promo_Card', ['a_b']],
    ['PromoXCard', ['ab', 'UI']],
    ['Header', ['ui', 'tag with spaces & more']],
  ];
  for (const [name, tags] of components) {
    const c = await aComponent(stack.domain.repos, { organizationId: user.defaultOrganizationId, createdBy: user.id, name, tags });
    names.set(c.id, name);
  }
  browser = new FormBrowser();
  await signInThrough(browser, stack.url, '/orgs', user);
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const list = (query: Record<string, string>) => browser.open(`${stack.url}/orgs/${user.defaultOrganizationId}/components?${new URLSearchParams(query).toString()}`);
const listed = (page: Page) => listedComponentIds(page).map((id) => names.get(id)).sort();

test.each([
  ['a name part, in any case', { q: 'PROMO' }, ['PromoXCard', 'Promo_Card']],
  ['"%" literally (not "anything")', { q: '%' }, ['100% Banner']],
  ['"_" literally (not "any one character")', { q: '_' }, ['Promo_Card']],
  ['"o_c" literally ("oXc" does not match)', { q: 'o_c' }, ['Promo_Card']],
  ['a name with spaces around it', { q: '  banner ' }, ['100% Banner']],
  ['an exact tag', { tag: 'a_b' }, ['Promo_Card']],
  ['a tag with "%"', { tag: '50%' }, ['100% Banner']],
  ['"%" as a tag (no tag is "%")', { tag: '%' }, []],
  ['a tag, case-sensitively', { tag: 'ui' }, ['Header']],
  ['a tag part (tags match whole)', { tag: 'u' }, []],
  ['a name and a tag together', { q: 'card', tag: 'UI' }, ['PromoXCard']],
])('%s', async (_case, query: Record<string, string>, expected: string[]) => {
  const page = await list(query);
  expect(page.status).toBe(200);
  expect(listed(page)).toEqual(expected);
});

test('the form shows what was searched for, escaped, and links to clear it', async () => {
  const page = await list({ q: '<b>"x"', tag: 'a_b' });
  expect(page.html).toContain('<input type="search" id="q" name="q" value="&lt;b&gt;&quot;x&quot;">');
  expect(page.html).toContain('<input type="text" id="tag" name="tag" value="a_b">');
  const cleared = await browser.open(linkNamed(page, 'Clear')!);
  expect(listed(cleared)).toEqual([...names.values()].sort());
});

test('no match: says so, with no table and no first-upload instructions', async () => {
  const page = await list({ q: 'nothing like this' });
  expect(page.status).toBe(200);
  const main = textOf(/<main id="content">([\s\S]*)<\/main>/.exec(page.html)![1]!);
  expect(main).toBe('Components of ' + (await stack.domain.repos.organizations.findById(user.defaultOrganizationId))!.name + ' Name Tag Search Clear No component matches.');
  expect(page.html).not.toContain('<table');
  expect(page.html).not.toContain('Upload your first component');
});

test("a component's tag links filter the list by that tag, whatever characters it has", async () => {
  const all = await list({});
  for (const [tag, expected] of [['50%', ['100% Banner']], ['tag with spaces & more', ['Header']], ['a_b', ['Promo_Card']]] as const) {
    const link = linkNamed(all, tag);
    expect(link).not.toBeNull();
    const page = await browser.open(link!);
    expect([tag, new URL(page.url).searchParams.get('tag'), listed(page)]).toEqual([tag, tag, expected]);
  }
});
