import { publishVariant, type Component, type User } from '@cp/domain';
import { aComponentWithVariants, aMembership } from '../support/builders.js';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';
import { textOf } from '../support/html.js';
import { signedInBrowser, type Page } from '../support/sign-in.js';

/*
 * The "In AI assistants" form over real HTTP: each refusal is the component page again with the
 * domain's message by the form (never a 500), the typed values kept, nothing saved; a member sees
 * the controls disabled with the reason, and any member sees which tool assistants list.
 */

let stack: DashboardStack;
let owner: User;
let member: User;
let component: Component;
beforeAll(async () => {
  stack = await startDashboardStack();
  [owner, member] = [await anAccount(stack.auth), await anAccount(stack.auth)];
  await aMembership(stack.db, member, owner.defaultOrganizationId, 'member');
  const { component: created, variants } = await aComponentWithVariants(stack.domain, owner, 1, { name: 'Crème brûlée card' });
  component = created;
  await publishVariant({ actor: { userId: owner.id }, componentId: component.id, environment: 'prod', variantId: variants[0]!.id }, stack.domain);
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const path = () => `/component/${component.id}/app`;
const valid = { environment: 'prod', title: 'Dessert', description: 'Shows the dessert card.', inputSchema: '', actionTools: '' };
/** The app form's message, and whether the page is the component page (its form still there). */
const refusal = (page: Page) => ({
  status: page.status,
  error: textOf(/<p class="error" id="app-error" role="alert">([\s\S]*?)<\/p>/.exec(page.html)?.[1] ?? ''),
  form: page.html.includes(`<form method="post" action="${path()}"`),
});

test("an owner's refused saves answer the component page with the message by the form and the typed text; nothing is saved", async () => {
  const { post } = await signedInBrowser(stack.url, `/component/${component.id}`, owner);
  const cases: [Record<string, string>, number, RegExp][] = [
    [{ inputSchema: '{"type":' }, 400, /^inputSchema: is not valid JSON \(.+\)\. Paste a JSON Schema object such as/],
    [{ inputSchema: '{"type":"object","properties":{"a":{"type":"nope"}}}' }, 400, /^inputSchema: is not a valid JSON Schema \(draft-07\): properties\.a\.type must be equal to one of the allowed values/],
    [{ actionTools: 'buy publish_component' }, 400, /^actionTools \(line 1\): "buy publish_component" is not "action = tool"/],
    [{ actionTools: 'cp:size = publish_component' }, 400, /not starting with "cp:"/],
    [{ environment: 'staging' }, 409, /^Crème brûlée card has no release in staging: .*Publish a variant to staging first\.$/],
    [{ environment: 'nowhere' }, 404, /^Environment "nowhere" does not exist in this organization\. Known environments: prod, staging\.$/],
    [{ title: '' }, 400, /^title: must be a non-empty string\.$/],
  ];
  for (const [change, status, message] of cases) {
    const page = await post(path(), { ...valid, ...change });
    expect({ change, ...refusal(page) }).toEqual({ change, status, error: expect.stringMatching(message), form: true });
    for (const typed of Object.values(change)) expect(page.html).toContain(typed.replaceAll('"', '&quot;'));
  }
  expect(await stack.domain.repos.apps.find(component.id)).toBeNull();
  // Bad settings for a component that is not there: the component's 404, as on every page.
  for (const id of ['not-a-uuid', '0f8fad5b-d9cb-469f-a165-70867728950e']) {
    for (const form of [valid, { ...valid, inputSchema: '{' }]) expect((await post(`/component/${id}/app`, form)).status).toBe(404);
  }
});

test('a member sees the form disabled with the reason and is refused by the form; the tool name shows for everyone', async () => {
  const owned = await signedInBrowser(stack.url, `/component/${component.id}`, owner);
  const saved = await owned.post(path(), valid);
  expect([saved.status, saved.url]).toEqual([200, `${stack.url}/component/${component.id}?notice=app-saved`]);

  const { page, post } = await signedInBrowser(stack.url, `/component/${component.id}`, member);
  // textOf reads each tag as a space.
  expect(textOf(/data-testid="app-state">([\s\S]*?)<\/p>/.exec(page.html)![1]!).replace(' ,', ',')).toBe(
    "Offered as “Dessert”: members' assistants list the tool show_creme_brulee_card_v1, which shows v1 (the release of prod).",
  );
  expect(page.html).toMatch(/<button type="submit" disabled aria-describedby="app-role-note">Save<\/button>/);
  expect(page.html).toContain('Your role here is member: only owners and admins can offer components as apps.');
  const reason = /^Your role in this organization is member: only owners and admins can (offer|stop offering) components as apps\./;
  expect(refusal(await post(path(), { ...valid, title: 'Taken over' }))).toEqual({ status: 403, error: expect.stringMatching(reason), form: true });
  expect(refusal(await post(`${path()}/remove`, {}))).toEqual({ status: 403, error: expect.stringMatching(reason), form: true });
  expect(await stack.domain.repos.apps.find(component.id)).toMatchObject({ title: 'Dessert' });

  // Stopping twice (another tab): the second one finds it stopped, as asked.
  for (let i = 0; i < 2; i += 1) expect((await owned.post(`${path()}/remove`, {})).url).toBe(`${stack.url}/component/${component.id}?notice=app-removed`);
  expect(await stack.domain.repos.apps.find(component.id)).toBeNull();
});
