import { publishVariant, type Component, type User, type Variant } from '@cp/domain';
import { aComponentWithVariants, aMembership } from '../support/builders.js';
import { press } from '../support/buttons.js';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';
import { tableAfter, textOf } from '../support/html.js';
import { headline, signedInBrowser, type Page, type SignedInBrowser } from '../support/sign-in.js';

/*
 * The rollout page over real HTTP: the start form's defaults sent back as a browser sends them,
 * Advance, a second Advance from the stale page (409 with the conflict, the page as it is now), Stop;
 * a refused start answers 422 with the typed stages; a viewer sees the form disabled and a start sent
 * anyway is refused.
 */

let stack: DashboardStack;
let owner: User;
let component: Component;
let variants: Variant[];
let ownerBrowser: SignedInBrowser;

const rolloutPath = (environment = 'staging') => `/component/${component.id}/env/${environment}/rollout`;

/** The fields of the form posting to `action`, with the values the page filled in (the CSRF token is the poster's own). */
function fieldsOf(page: Page, action: string): Record<string, string> {
  const form = [...page.html.matchAll(/<form method="post" action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/g)].find((f) => f[1] === action);
  if (form === undefined) throw new Error(`no form to ${action} on ${page.url}`);
  const fields: Record<string, string> = {};
  for (const [, name, value] of (form[2] ?? '').matchAll(/<input\b[^>]*\bname="([^"]+)"[^>]*\bvalue="([^"]*)"/g)) if (name !== 'csrf_token') fields[name!] = value!;
  return fields;
}

const notice = (page: Page) => textOf(/<p class="notice" role="status">([\s\S]*?)<\/p>/.exec(page.html)?.[1] ?? '');
/** State, stage, weight and revision of the page's rollout. */
const state = (page: Page, heading: string) => tableAfter(page, heading)[0]!.slice(0, 4).map((cell) => cell.replace(/, since .*$/, ''));

beforeAll(async () => {
  stack = await startDashboardStack();
  owner = await anAccount(stack.auth);
  ({ component, variants } = await aComponentWithVariants(stack.domain, owner, 3));
  await publishVariant({ actor: { userId: owner.id }, componentId: component.id, environment: 'staging', variantId: variants[0]!.id }, stack.domain);
  ownerBrowser = await signedInBrowser(stack.url, rolloutPath(), owner);
}, 90_000);
afterAll(async () => {
  await stack?.close();
});

test('start with the default stages and thresholds, advance, a stale advance gets the conflict, stop', async () => {
  const empty = ownerBrowser.page;
  expect(empty.html).toContain('staging has had no rollout.');
  const defaults = fieldsOf(empty, `${rolloutPath()}/start`);
  expect([0, 1, 2, 3, 4, 5].map((i) => [defaults[`stages.${i}.weight`], defaults[`stages.${i}.hold`]])).toEqual([['1', '60'], ['5', '60'], ['25', '60'], ['50', '60'], ['100', '0'], ['', '']]);
  expect(Object.entries(defaults).filter(([name]) => name.startsWith('guard.'))).toEqual([
    ['guard.minSessionsPerArm', '200'], ['guard.windowSessions', '200'], ['guard.minErrorRateRise', '1'], ['guard.minZ', '3'], ['guard.regressedWindows', '2'], ['guard.sampleRatioP', '0.001'],
  ]);

  const started = await ownerBrowser.post(`${rolloutPath()}/start`, { ...defaults, candidate: variants[1]!.id });
  expect(notice(started)).toBe('Rollout started at its first stage. The guard judges it every minute.');
  const heading = 'Live rollout: v2 against v1';
  const [, , , revision] = state(started, heading);
  expect(state(started, heading)).toEqual(['running', '1 of 5', '1%', revision]);
  const componentPage = await ownerBrowser.get(`/component/${component.id}`);
  expect(tableAfter(componentPage, 'Environments').find((row) => row[0] === 'staging')?.[2]).toBe('rollout of v2 running: stage 1 of 5, 1% Experience Rollout');

  const advanced = await press(ownerBrowser.browser, started, 'Advance');
  expect([notice(advanced), ...state(advanced, heading).slice(0, 3)]).toEqual(['Rollout advanced to its next stage.', 'running', '2 of 5', '5%']);

  // The first page's Advance again: its revision is stale.
  const stale = await press(ownerBrowser.browser, started, 'Advance');
  expect(stale.status).toBe(409);
  expect(headline(stale).message).not.toBe('');
  expect(state(stale, heading).slice(0, 3)).toEqual(['running', '2 of 5', '5%']);

  const stopped = await press(ownerBrowser.browser, advanced, 'Stop', { reason: 'checkout errors' });
  expect(notice(stopped)).toBe('Rollout stopped: everyone gets the release again.');
  expect(state(stopped, 'Last rollout: v2 against v1').slice(0, 3)).toEqual(['stopped', '2 of 5', '0%']);
  expect(stopped.html).toContain('<h2 id="start">Start a rollout</h2>');
});

test('a refused start answers 422 with the typed stages and the message naming the stage', async () => {
  const page = await ownerBrowser.get(rolloutPath());
  const fields = { ...fieldsOf(page, `${rolloutPath()}/start`), candidate: variants[2]!.id, 'stages.1.weight': '0.5' };
  const refused = await ownerBrowser.post(`${rolloutPath()}/start`, fields);
  expect(refused.status).toBe(422);
  expect(headline(refused).message).toBe('stages[1].weight: 0.5% does not rise above the stage before (1%): a canary only grows.');
  expect(refused.html).toContain('name="stages.1.weight" value="0.5"');
  expect(refused.html).toMatch(new RegExp(`<option value="${variants[2]!.id}" selected>v3</option>`));
});

test('a viewer sees the start form disabled with the reason, and a start sent anyway is refused', async () => {
  const viewer = await anAccount(stack.auth);
  await aMembership(stack.db, viewer, owner.defaultOrganizationId, 'viewer');
  const signed = await signedInBrowser(stack.url, rolloutPath(), viewer);
  expect(signed.page.html).toContain('<button type="submit" disabled aria-describedby="rollout-role-note">Start rollout</button>');
  expect(signed.page.html).toContain('id="rollout-role-note">Your role here is viewer: only owners, admins and members can start and change rollouts.</p>');
  const refused = await signed.post(`${rolloutPath()}/start`, { ...fieldsOf(ownerBrowser.page, `${rolloutPath()}/start`), candidate: variants[1]!.id });
  expect([refused.status, headline(refused).title]).toEqual([403, 'Not allowed']);
  expect(await stack.domain.repos.rollouts.findLive(component.id, (await stack.domain.repos.environments.findByName(owner.defaultOrganizationId, 'staging'))!.id)).toBeNull();
});
