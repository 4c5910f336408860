import { publishVariant, type Component, type User, type Variant } from '@cp/domain';
import { aComponentWithVariants, aMembership } from '../support/builders.js';
import { press } from '../support/buttons.js';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';
import { buttonsOf, tableAfter, textOf } from '../support/html.js';
import { headline, signedInBrowser, type Page, type SignedInBrowser } from '../support/sign-in.js';

/*
 * The experience editor over real HTTP (the dashboard and the auth server on one database): the
 * owner builds a split with the form's own add buttons, saves, publishes (a new phase, then keeping
 * the buckets: the notice reports the users moved), and re-publishes; a refused save answers 422
 * with the typed values and the domain's message naming the rule; a viewer sees every control
 * disabled and a POST is refused; a member's publish in protected prod becomes a release request
 * that the owner approves.
 */

let stack: DashboardStack;
let owner: User;
let component: Component;
let variants: Variant[];
let ownerBrowser: SignedInBrowser;

const editorPath = (environment: string) => `/component/${component.id}/env/${environment}/experience`;

/** A segment "germany" (country in DE, AT) split between v2 and v3, as the editor's fields. */
const germany = (weights: [string, string], values = 'DE, AT', operator = 'in') => ({
  'segments.0.name': 'germany',
  'segments.0.rules.0.attribute': 'country',
  'segments.0.rules.0.operator': operator,
  'segments.0.rules.0.values': values,
  'segments.0.arms.0.variant': variants[1]!.id,
  'segments.0.arms.0.weight': weights[0],
  'segments.0.arms.1.variant': variants[2]!.id,
  'segments.0.arms.1.weight': weights[1],
});

const notice = (page: Page) => textOf(/<div class="notice" role="status">([\s\S]*?)<\/div>|<p class="notice"[^>]*>([\s\S]*?)<\/p>/.exec(page.html)?.[0] ?? '');

beforeAll(async () => {
  stack = await startDashboardStack();
  owner = await anAccount(stack.auth);
  ({ component, variants } = await aComponentWithVariants(stack.domain, owner, 3));
  for (const environment of ['staging', 'prod']) {
    await publishVariant({ actor: { userId: owner.id }, componentId: component.id, environment, variantId: variants[0]!.id }, stack.domain);
  }
  ownerBrowser = await signedInBrowser(stack.url, editorPath('staging'), owner);
}, 90_000);
afterAll(async () => {
  await stack?.close();
});

test('the owner adds a segment, saves a split, publishes it, publishes new weights keeping the buckets (users moved in the notice), and re-publishes', async () => {
  const empty = ownerBrowser.page;
  expect(empty.status).toBe(200);
  expect(empty.html).toContain('No experience is live: everyone gets the release.');

  // `press` sends the form's hidden fields; the pressed button's own name and value are given, as a browser sends them.
  const added = await press(ownerBrowser.browser, empty, 'Add segment', { op: 'add-segment' });
  expect([added.status, (added.html.match(/data-testid="segment"/g) ?? []).length]).toEqual([200, 1]);
  expect(await stack.domain.repos.experiences.findDraft(component.id, (await env('staging')).id)).toBeNull();

  const saved = await ownerBrowser.post(editorPath('staging'), { op: 'save', ...germany(['50', '50']) });
  expect([saved.status, notice(saved)]).toEqual([200, 'Draft saved. Nothing changes for users until you publish it.']);
  expect(saved.html).toContain('value="DE, AT"');

  const first = await press(ownerBrowser.browser, saved, 'Publish the draft', { phase: 'keep' });
  expect(notice(first)).toBe('Revision 1 published: hosts get it within about a minute (cache). A new phase: every user was drawn again.');

  await ownerBrowser.post(editorPath('staging'), { op: 'save', ...germany(['75', '25.5']) }).then((page) => expect(headline(page).message).toContain('weights add up to 100.5%'));
  await ownerBrowser.post(editorPath('staging'), { op: 'save', ...germany(['75', '25']) });
  const second = await ownerBrowser.post(`${editorPath('staging')}/publish`, { phase: 'keep', expectedLive: '1' });
  expect(notice(second)).toBe('Revision 2 published: hosts get it within about a minute (cache). Every user kept their bucket. Users who changed variant, per segment: germany: 25% of its users');
  expect(tableAfter(second, 'Revisions').map((row) => row[0])).toEqual(['2', '1']);

  const again = await press(ownerBrowser.browser, second, 'Re-publish revision 1');
  expect(notice(again)).toMatch(/^Revision 3 published/);
  expect(tableAfter(again, 'Revisions').map((row) => [row[0], row[3]])).toEqual([['3', '1'], ['2', '—'], ['1', '—']]);
  expect(textOf(/data-testid="experience-state">([\s\S]*?)<\/p>/.exec(again.html)?.[1] ?? '')).toMatch(/^Live: revision 3, 1 segment, since /);

  // The component page's staging row says so, with its links.
  const componentPage = await ownerBrowser.get(`/component/${component.id}`);
  expect(tableAfter(componentPage, 'Environments').find((row) => row[0] === 'staging')?.[2]).toBe('experience revision 3 live Experience Rollout');
});

test('a refused save answers 422 with the typed values and the message naming the rule', async () => {
  const refused = await ownerBrowser.post(editorPath('staging'), { op: 'save', ...germany(['50', '50'], 'DE, AT', 'equals') });
  expect(refused.status).toBe(422);
  expect(refused.html).toContain('segments[0].rules[0].values: equals takes exactly one value.');
  expect(refused.html).toContain('name="segments.0.rules.0.values" value="DE, AT"');
  expect(refused.html).toMatch(/<option value="equals" selected>/);
});

test('a viewer sees every control disabled with the reason, and a save sent anyway is refused', async () => {
  const viewer = await anAccount(stack.auth);
  await aMembership(stack.db, viewer, owner.defaultOrganizationId, 'viewer');
  const signed = await signedInBrowser(stack.url, editorPath('prod'), viewer);
  const reason = 'Your role here is viewer: only owners, admins and members can edit and publish experiences.';
  expect(signed.page.html).toContain(`<p class="hint" id="experience-role-note">${reason}</p>`);
  expect(signed.page.html).toContain('<button type="submit" name="op" value="save" disabled aria-describedby="experience-role-note">Save draft</button>');
  expect(signed.page.html).toContain('<button type="submit" disabled aria-describedby="experience-role-note">Publish the draft</button>');

  const refused = await signed.post(editorPath('prod'), { op: 'save', ...germany(['50', '50']) });
  expect([refused.status, headline(refused).title]).toEqual([403, 'Not allowed']);
  expect(await stack.domain.repos.experiences.findDraft(component.id, (await env('prod')).id)).toBeNull();
});

test("a member's publish in protected prod becomes a release request of kind experience; the owner's approval publishes it", async () => {
  const member = await anAccount(stack.auth);
  await aMembership(stack.db, member, owner.defaultOrganizationId, 'member');
  const signed = await signedInBrowser(stack.url, editorPath('prod'), member);
  expect(signed.page.html).toContain('id="experience-request">prod is protected: your publish sends a release request');
  await signed.post(editorPath('prod'), { op: 'save', ...germany(['50', '50']) });
  const requested = await signed.post(`${editorPath('prod')}/publish`, { phase: 'new', expectedLive: '' });
  expect(notice(requested)).toBe('Release request sent: the experience is published when an owner or admin approves it.');

  const list = await ownerBrowser.get(`/orgs/${owner.defaultOrganizationId}/release-requests`);
  const row = textOf(/<li data-testid="release-request">([\s\S]*?)<\/li>/.exec(list.html)?.[1] ?? '');
  expect(row).toMatch(/^Experience: .+ an experience of 1 segment, a new phase, on v1 in prod , asked by /);
  expect(buttonsOf(list)).toContain('Approve');
  const approved = await press(ownerBrowser.browser, list, 'Approve');
  expect(notice(approved)).toBe('Request approved: the experience is published. Hosts get it within about a minute (cache).');
  expect((await stack.domain.repos.experiences.findLive(component.id, (await env('prod')).id))?.number).toBe(1);
});

const env = async (name: string) => (await stack.domain.repos.environments.findByName(owner.defaultOrganizationId, name))!;
