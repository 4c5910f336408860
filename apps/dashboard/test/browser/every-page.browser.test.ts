import { accessibilityViolations, launchChromium, type Browser, type Page } from '@cp/browser-testing';
import type { User } from '@cp/domain';
import { signInInChromium } from '../support/chromium-sign-in.js';
import { startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';
import { anOrganizationOnEveryPage, type PageToVisit } from '../support/every-page.js';

/*
 * Every page of the dashboard in headless Chromium, at a laptop's width and a phone's: the main
 * navigation marks the page's item as current, shows its groups on wide screens and folds them behind
 * "Menu" on narrow ones, and axe-core finds nothing (any impact); the pages with charts also in the
 * dark theme. A variant's preview is left out:
 * it serves the uploaded component's own document, not the dashboard's.
 * With SCREENSHOTS=1 it also writes the screenshots docs/dashboard.md shows (docs/screenshots/);
 * otherwise it writes nothing, so a run never rewrites the committed images.
 */

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;
const NARROW = 390;
const SHOTS = new Set(['components', 'component', 'component-usage', 'usage', 'environments', 'members']);
const SCREENSHOTS = process.env.SCREENSHOTS === '1' ? new URL('../../../../docs/screenshots/', import.meta.url).pathname : null;

let stack: DashboardStack;
let browser: Browser;
let owner: User;
let pages: PageToVisit[];

beforeAll(async () => {
  stack = await startDashboardStack();
  browser = await launchChromium();
  ({ owner, pages } = await anOrganizationOnEveryPage(stack));
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const mainNavigation = (page: Page) => page.getByRole('navigation', { name: 'Main' });

async function current(page: Page): Promise<string | null> {
  const marked = page.locator('nav.site a[aria-current="page"]');
  return (await marked.count()) === 0 ? null : marked.textContent();
}

/** Whether the current item can be seen (null on pages without the navigation). */
async function currentVisible(page: Page, label: string | null): Promise<boolean | null> {
  return label === null ? null : mainNavigation(page).getByRole('link', { name: label, exact: true }).isVisible();
}

interface Seen {
  readonly page: string;
  readonly width: number;
  readonly status: number | undefined;
  readonly current: string | null;
  /** Whether the current item can be seen as the page opens, and after a click on "Menu" on narrow screens. */
  readonly shownAtOnce: boolean | null;
  readonly shownAfterMenu: boolean | null;
  /** Whether the page fits the width, with no sideways scrolling. */
  readonly fits: boolean;
}

/** Opens the page at the viewport's width; what it shows of the navigation, and what axe-core finds. */
async function look(page: Page, url: string, name: string, width: number): Promise<{ seen: Seen; violations: unknown[] }> {
  const response = await page.goto(url);
  const marked = await current(page);
  const shownAtOnce = await currentVisible(page, marked);
  // The component's usage whole: its charts are below the fold.
  if (SCREENSHOTS !== null && SHOTS.has(name)) await page.screenshot({ path: `${SCREENSHOTS}${name}-${width}.png`, fullPage: name === 'component-usage' });
  // Narrow: open the menu, so that axe-core checks the groups as well.
  if (width === NARROW && marked !== null) await mainNavigation(page).getByText('Menu').click();
  if (SCREENSHOTS !== null && width === NARROW && name === 'environments') await page.screenshot({ path: `${SCREENSHOTS}navigation-${width}.png` });
  const shownAfterMenu = await currentVisible(page, marked);
  const fits = (await page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth')) === true;
  const seen = { page: name, width, status: response?.status(), current: marked, shownAtOnce, shownAfterMenu, fits };
  return { seen, violations: (await accessibilityViolations(page)).map((found) => ({ page: name, width, ...found })) };
}

const expected = (name: string, width: number, current: string | null, status = 200): Seen => ({
  page: name,
  width,
  status,
  current,
  shownAtOnce: current === null ? null : width !== NARROW,
  shownAfterMenu: current === null ? null : true,
  fits: true,
});

it('every page: the navigation marks where you are, and axe-core finds nothing at 1280 and 390 px', async () => {
  const page = await signInInChromium(browser, stack.url, owner, pages[0]!.path);
  const seen: Seen[] = [];
  const violations: unknown[] = [];
  const add = (found: { seen: Seen; violations: unknown[] }) => {
    seen.push(found.seen);
    violations.push(...found.violations);
  };
  for (const { width, height } of WIDTHS) {
    await page.setViewportSize({ width, height });
    for (const visit of pages) add(await look(page, `${stack.url}${visit.path}`, visit.name, width));
  }
  // The pages whose colours are their own (charts), once more in the dark theme.
  await page.setViewportSize(WIDTHS[0]);
  await page.emulateMedia({ colorScheme: 'dark' });
  for (const visit of pages.filter((p) => p.dark === true)) add(await look(page, `${stack.url}${visit.path}`, `${visit.name}-dark`, WIDTHS[0].width));
  await page.emulateMedia({ colorScheme: 'light' });
  // Last, once signed out: the page that says so.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL(`${stack.url}/signed-out`);
  for (const { width, height } of WIDTHS) {
    await page.setViewportSize({ width, height });
    add(await look(page, `${stack.url}/signed-out`, 'signed-out', width));
  }
  expect({ seen, violations }).toEqual({
    seen: [
      ...WIDTHS.flatMap(({ width }) => pages.map((visit) => expected(visit.name, width, visit.current, visit.status))),
      ...pages.filter((visit) => visit.dark === true).map((visit) => expected(`${visit.name}-dark`, WIDTHS[0].width, visit.current, visit.status)),
      ...WIDTHS.map(({ width }) => expected('signed-out', width, null)),
    ],
    violations: [],
  });
}, 240_000);
