import { aComponent } from '@cp/db/testing';
import type { User } from '@cp/domain';
import { press } from '../support/buttons.js';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';
import { buttonsOf, orderedListAfter } from '../support/html.js';
import { FormBrowser, csrfOf, headline, signInThrough, type Page } from '../support/sign-in.js';

/*
 * A flow's components over real HTTP: added, moved up and down and removed with the page's own
 * buttons (the order on the page and in the database after each step), the moves the page does not
 * offer (the first up, the last down) sent anyway as a stale page would, and bad input: a 4xx page
 * that says what went wrong, the flow unchanged, never a 500.
 */

const NAMES = ['Header', 'Basket', 'Footer'];

let stack: DashboardStack;
let owner: User;
let browser: FormBrowser;
let csrf: string;
/** Component id by name. */
const ids = new Map<string, string>();
beforeAll(async () => {
  stack = await startDashboardStack();
  owner = await anAccount(stack.auth);
  for (const name of NAMES) ids.set(name, (await aComponent(stack.domain.repos, { organizationId: owner.defaultOrganizationId, createdBy: owner.id, name })).id);
  browser = new FormBrowser();
  csrf = csrfOf((await signInThrough(browser, stack.url, '/orgs', owner)).page);
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const id = (name: string) => ids.get(name)!;
const order = (page: Page) => orderedListAfter(page, 'Components, in order');
/** What the database holds, as names. */
const stored = async (flowId: string) => (await stack.domain.repos.flows.findById(flowId))!.componentIds.map((c) => NAMES.find((name) => id(name) === c) ?? c);
const outcome = (page: Page) => ({ status: page.status, ...headline(page) });
const post = (path: string, form: Record<string, string>) => browser.open(`${stack.url}${path}`, { method: 'POST', form: { csrf_token: csrf, ...form } });

/** A new flow, made through the flows page's form, holding `names` added one by one through "Add". */
async function aFlowWith(names: string[]): Promise<{ flowId: string; page: Page }> {
  const flows = await browser.open(`${stack.url}/orgs/${owner.defaultOrganizationId}/flows`);
  let page = await browser.submit(flows, { name: `Flow ${Math.random().toString(36).slice(2, 8)}` }, { action: /\/flows$/ });
  const flowId = /\/flows\/([0-9a-f-]{36})\?notice=flow-saved$/.exec(page.url)?.[1];
  if (flowId === undefined) throw new Error(`creating a flow ended at ${page.url}`);
  for (const name of names) {
    const option = new RegExp(`<option value="([^"]+)">${name}</option>`).exec(page.html)?.[1];
    expect(option).toBe(id(name));
    page = await press(browser, page, 'Add', { component: option! });
  }
  return { flowId, page };
}

test('add, move up, move down and remove with the buttons: the order on the page and in the database after each step', async () => {
  const { flowId, page: added } = await aFlowWith(['Header', 'Basket', 'Footer']);
  expect([added.status, added.url, order(added)]).toEqual([200, `${stack.url}/flows/${flowId}?notice=flow-saved`, ['Header', 'Basket', 'Footer']]);
  expect(added.html).toContain('<p class="notice" role="status">Flow saved.</p>');
  // The first cannot move up nor the last down: the page offers neither.
  expect(buttonsOf(added).filter((label) => / (up|down|from the flow)$/.test(label))).toEqual([
    'Move Header down', 'Remove Header from the flow',
    'Move Basket up', 'Move Basket down', 'Remove Basket from the flow',
    'Move Footer up', 'Remove Footer from the flow',
  ]);
  // Every component is in the flow: nothing left to add.
  expect(buttonsOf(added)).not.toContain('Add');

  const steps: [string, string[]][] = [
    ['Move Footer up', ['Header', 'Footer', 'Basket']],
    ['Move Header down', ['Footer', 'Header', 'Basket']],
    ['Move Basket up', ['Footer', 'Basket', 'Header']],
    ['Move Footer down', ['Basket', 'Footer', 'Header']],
    ['Remove Footer from the flow', ['Basket', 'Header']],
    ['Remove Basket from the flow', ['Header']],
  ];
  let page = added;
  for (const [button, expected] of steps) {
    page = await press(browser, page, button);
    expect({ button, status: page.status, url: page.url, page: order(page), database: await stored(flowId) }).toEqual({
      button, status: 200, url: `${stack.url}/flows/${flowId}?notice=flow-saved`, page: expected, database: expected,
    });
  }
  // One component: no move either way, and the removed ones can be added again.
  expect(buttonsOf(page).filter((label) => label.startsWith('Move '))).toEqual([]);
  const addable = /<select id="add-component" name="component">([\s\S]*?)<\/select>/.exec(page.html)?.[1] ?? '';
  expect([...addable.matchAll(/<option value="[^"]+">([^<]*)<\/option>/g)].map((o) => o[1]).sort()).toEqual(['Basket', 'Footer']);

  page = await press(browser, page, 'Remove Header from the flow');
  expect([order(page), await stored(flowId)]).toEqual([[], []]);
  expect(page.html).toContain('<p>No component in this flow yet.</p>');
});

describe('moves the page does not offer, sent anyway (a stale page, a second click): 400, the flow unchanged', () => {
  test('the second click on "Move Footer up" once Footer is first', async () => {
    const { flowId } = await aFlowWith(['Header', 'Footer']);
    const stale = await browser.open(`${stack.url}/flows/${flowId}`);
    expect(order(await press(browser, stale, 'Move Footer up'))).toEqual(['Footer', 'Header']);
    const again = await press(browser, stale, 'Move Footer up');
    expect(outcome(again)).toEqual({ status: 400, title: 'That did not work', message: `component: component "${id('Footer')}" is already the first in this flow.` });
    expect(await stored(flowId)).toEqual(['Footer', 'Header']);
  });

  test('the last one down, the first one up', async () => {
    const { flowId } = await aFlowWith(['Header', 'Basket', 'Footer']);
    expect(outcome(await post(`/flows/${flowId}/components`, { op: 'down', component: id('Footer') }))).toEqual({
      status: 400, title: 'That did not work', message: `component: component "${id('Footer')}" is already the last in this flow.`,
    });
    expect(outcome(await post(`/flows/${flowId}/components`, { op: 'up', component: id('Header') }))).toEqual({
      status: 400, title: 'That did not work', message: `component: component "${id('Header')}" is already the first in this flow.`,
    });
    expect(await stored(flowId)).toEqual(['Header', 'Basket', 'Footer']);
  });

  test('removing what a stale page still shows, after it was removed', async () => {
    const { flowId, page: stale } = await aFlowWith(['Header', 'Basket']);
    expect(order(await press(browser, stale, 'Remove Basket from the flow'))).toEqual(['Header']);
    expect(outcome(await press(browser, stale, 'Remove Basket from the flow'))).toEqual({
      status: 400, title: 'That did not work', message: `component: component "${id('Basket')}" is not in this flow (any more): reload the flow.`,
    });
    expect(outcome(await press(browser, stale, 'Move Basket up'))).toMatchObject({ status: 400 });
    expect(await stored(flowId)).toEqual(['Header']);
  });
});

describe('bad input: a 4xx page that says what is wrong, never a 500, the flow unchanged', () => {
  const UNKNOWN = '0f8fad5b-d9cb-469f-a165-70867728950e';
  const notInFlow = (component: string) => ({ status: 400, title: 'That did not work', message: `component: component ${JSON.stringify(component)} is not in this flow (any more): reload the flow.` });
  const NOT_FOUND = { status: 404, title: 'Not found', message: 'There is nothing here, or it is not in one of your organizations.' };

  test.each([
    ['an unknown op', () => ({ op: 'swap', component: id('Header') }), () => ({ status: 400, title: 'That did not work', message: 'op: "swap" is not a change to a flow: use add, remove, up, down.' })],
    ['no op', () => ({ component: id('Header') }), () => ({ status: 400, title: 'That did not work', message: 'op: "" is not a change to a flow: use add, remove, up, down.' })],
    ['a long op (shown cut)', () => ({ op: 'x'.repeat(500), component: id('Header') }), () => ({ status: 400, title: 'That did not work', message: `op: "${'x'.repeat(40)}" is not a change to a flow: use add, remove, up, down.` })],
    ['no component', () => ({ op: 'remove' }), () => notInFlow('')],
    ['a malformed component id', () => ({ op: 'up', component: 'not-a-uuid' }), () => notInFlow('not-a-uuid')],
    ['an unknown component id', () => ({ op: 'down', component: UNKNOWN }), () => notInFlow(UNKNOWN)],
    ['a component of the organization that is not in the flow', () => ({ op: 'remove', component: id('Footer') }), () => notInFlow(id('Footer'))],
    ['adding one already in the flow', () => ({ op: 'add', component: id('Basket') }), () => ({ status: 400, title: 'That did not work', message: `component: component "${id('Basket')}" is already in this flow.` })],
    ['adding an unknown component', () => ({ op: 'add', component: UNKNOWN }), () => ({ status: 400, title: 'That did not work', message: `componentIds: component "${UNKNOWN}" was not found in this organization.` })],
  ])('%s', async (_case, form, expected) => {
    const { flowId } = await aFlowWith(['Header', 'Basket']);
    expect(outcome(await post(`/flows/${flowId}/components`, form()))).toEqual(expected());
    expect(await stored(flowId)).toEqual(['Header', 'Basket']);
  });

  test.each([
    ['an unknown flow', UNKNOWN],
    ['a malformed flow id', 'not-a-uuid'],
  ])('%s: 404, like any unknown id', async (_case, flowId) => {
    for (const op of ['add', 'remove', 'up', 'down', 'swap']) expect(outcome(await post(`/flows/${flowId}/components`, { op, component: id('Header') }))).toEqual(NOT_FOUND);
  });
});
