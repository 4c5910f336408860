import { publishVariant } from '@cp/domain';
import { aComponentWithVariants } from '../support/builders.js';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';
import { FormBrowser, csrfOf, headline, signInThrough, type Page } from '../support/sign-in.js';
import { PREVIEW_CSP } from '../../src/routes/component-routes.js';

/* The pages' forms over real HTTP: what they change, and the 4xx page (never a 500) for every bad input. */

let stack: DashboardStack;
let browser: FormBrowser;
let orgId: string;
let userId: string;
let csrf: string;
beforeAll(async () => {
  stack = await startDashboardStack();
  const user = await anAccount(stack.auth);
  orgId = user.defaultOrganizationId;
  userId = user.id;
  browser = new FormBrowser();
  const { page } = await signInThrough(browser, stack.url, '/orgs', user);
  csrf = csrfOf(page);
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

const open = (path: string) => browser.open(`${stack.url}${path}`);
const post = (path: string, form: Record<string, string>) => browser.open(`${stack.url}${path}`, { method: 'POST', form: { csrf_token: csrf, ...form } });
const outcome = (page: Page) => ({ status: page.status, ...headline(page) });
const NOT_FOUND = { status: 404, title: 'Not found', message: 'There is nothing here, or it is not in one of your organizations.' };
const MALFORMED = 'not-a-uuid';
const UNKNOWN = '0f8fad5b-d9cb-469f-a165-70867728950e';
const environmentId = async (name: string) => (await stack.domain.repos.environments.findByName(orgId, name))!.id;

describe('preview of a variant', () => {
  test('served with a sandboxing CSP (own opaque origin, nothing from the network), framable only by the dashboard', async () => {
    const user = await stack.domain.repos.users.findById(userId);
    const { component, variants } = await aComponentWithVariants(stack.domain, user!, 2);
    const page = await open(`/component/${component.id}?variant=${variants[0]!.id}`);
    expect(page.html).toContain(`<iframe class="preview" sandbox="allow-scripts" src="/component/${component.id}/variants/${variants[0]!.id}/preview"`);
    expect(page.headers.get('content-security-policy')).toBe("default-src 'none'; style-src 'self'; img-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'");

    const preview = await open(`/component/${component.id}/variants/${variants[0]!.id}/preview`);
    expect(preview.status).toBe(200);
    expect(preview.html).toBe('<!doctype html><html><body><h1>v1</h1></body></html>');
    expect(PREVIEW_CSP).toBe(
      "sandbox allow-scripts; default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:; font-src data:; media-src data: blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'self'",
    );
    expect({
      csp: preview.headers.get('content-security-policy'),
      frame: preview.headers.get('x-frame-options'),
      type: preview.headers.get('content-type'),
      sniff: preview.headers.get('x-content-type-options'),
      cache: preview.headers.get('cache-control'),
      referrer: preview.headers.get('referrer-policy'),
    }).toEqual({ csp: PREVIEW_CSP, frame: 'SAMEORIGIN', type: 'text/html; charset=utf-8', sniff: 'nosniff', cache: 'private, max-age=3600', referrer: 'no-referrer' });
  });

  test.each([
    ['a malformed variant id', MALFORMED],
    ['an unknown variant id', UNKNOWN],
  ])('%s: 404', async (_case, variantId) => {
    const user = await stack.domain.repos.users.findById(userId);
    const { component } = await aComponentWithVariants(stack.domain, user!, 1);
    expect(outcome(await open(`/component/${component.id}/variants/${variantId}/preview`))).toEqual(NOT_FOUND);
  });

  test.each([
    ['a malformed', () => MALFORMED],
    ['an unknown', () => UNKNOWN],
    ["another component's", async () => {
      const user = await stack.domain.repos.users.findById(userId);
      return (await aComponentWithVariants(stack.domain, user!, 1)).variants[0]!.id;
    }],
  ])("the component page previewing %s variant id: 404 (not the page without a preview)", async (_case, variantId) => {
    const user = await stack.domain.repos.users.findById(userId);
    const { component } = await aComponentWithVariants(stack.domain, user!, 2);
    const page = await open(`/component/${component.id}?variant=${await variantId()}`);
    expect(outcome(page)).toEqual(NOT_FOUND);
    expect(page.html).not.toContain('<iframe');
    // The same page without the parameter (or with it empty) previews the latest variant.
    for (const path of [`/component/${component.id}`, `/component/${component.id}?variant=`]) expect((await open(path)).html).toContain('<h2 id="preview">Preview of v2</h2>');
  });

  test("another component's variant through this component's URL: 404", async () => {
    const user = await stack.domain.repos.users.findById(userId);
    const [{ component }, { variants }] = await Promise.all([aComponentWithVariants(stack.domain, user!, 1), aComponentWithVariants(stack.domain, user!, 1)]);
    expect(outcome(await open(`/component/${component.id}/variants/${variants[0]!.id}/preview`))).toEqual(NOT_FOUND);
  });
});

describe('environments', () => {
  const base = () => `/orgs/${orgId}/environments`;

  test('add, rename, remove through the forms', async () => {
    let page = await post(base(), { name: ' QA ' });
    expect([page.status, page.url]).toEqual([200, `${stack.url}${base()}?notice=env-added`]);
    expect(page.html).toContain('<p class="notice" role="status">Environment added.</p>');
    const id = await environmentId('qa');

    page = await post(`${base()}/${id}/rename`, { name: 'qa-eu' });
    expect([page.status, page.url]).toEqual([200, `${stack.url}${base()}?notice=env-renamed`]);
    expect(page.html).toContain('Environment renamed. Hosts asking for the old name now get 404.');
    expect((await stack.domain.repos.environments.listForOrganization(orgId)).map((e) => e.name).sort()).toEqual(['prod', 'qa-eu', 'staging']);

    page = await post(`${base()}/${id}/remove`, {});
    expect([page.status, page.url]).toEqual([200, `${stack.url}${base()}?notice=env-removed`]);
    expect(await stack.domain.repos.environments.findByName(orgId, 'qa-eu')).toBeNull();
  });

  test('remove is refused while the environment has releases, with 409 and the reason', async () => {
    const user = await stack.domain.repos.users.findById(userId);
    const { component } = await aComponentWithVariants(stack.domain, user!, 1);
    await post(base(), { name: 'canary' });
    await publishVariant({ actor: { userId }, componentId: component.id, environment: 'canary' }, stack.domain);
    const page = await post(`${base()}/${await environmentId('canary')}/remove`, {});
    expect(outcome(page)).toEqual({
      status: 409,
      title: 'This environment is in use',
      message: 'Environment "canary" has releases (or had some), so removing it would lose their history. Keep it, or rename it.',
    });
    expect(await stack.domain.repos.environments.findByName(orgId, 'canary')).not.toBeNull();
  });

  const badName = (raw: string) => ({
    status: 400,
    title: 'That did not work',
    message: `environment: "${raw.slice(0, 40)}" is not an environment name: use 1-32 lower-case letters, digits or "-", starting with a letter (for example "prod").`,
  });

  test.each([
    ['empty', ''],
    ['blank', '   '],
    ['too long', `a${'b'.repeat(32)}`],
    ['not a slug', 'Prod Europe'],
    ['starting with a digit', '1prod'],
  ])('add with a name that is %s: 400 naming the rule', async (_case, name) => {
    expect(outcome(await post(base(), { name }))).toEqual(badName(name));
  });

  test('add with a taken name: 409', async () => {
    expect(outcome(await post(base(), { name: 'prod' }))).toMatchObject({ status: 409, title: 'That name is taken' });
  });

  test('add without a name field at all: 400', async () => {
    expect(outcome(await post(base(), {}))).toEqual(badName(''));
  });

  test.each([
    ['empty', ''],
    ['too long', 'x'.repeat(33)],
  ])('rename to a name that is %s: 400', async (_case, name) => {
    expect(outcome(await post(`${base()}/${await environmentId('staging')}/rename`, { name }))).toEqual(badName(name));
  });

  test.each([
    ['rename', { name: 'x' }],
    ['remove', {}],
  ])('%s an unknown or malformed environment id: 404', async (action, form: Record<string, string>) => {
    for (const id of [UNKNOWN, MALFORMED]) expect(outcome(await post(`${base()}/${id}/${action}`, form))).toEqual(NOT_FOUND);
  });

  test.each([
    ['add', (org: string) => [`/orgs/${org}/environments`, { name: 'x' }] as const],
    ['rename', (org: string) => [`/orgs/${org}/environments/${UNKNOWN}/rename`, { name: 'x' }] as const],
    ['remove', (org: string) => [`/orgs/${org}/environments/${UNKNOWN}/remove`, {}] as const],
  ])('%s in an unknown or malformed organization: 404', async (_case, target) => {
    for (const org of [UNKNOWN, MALFORMED]) {
      const [path, form] = target(org);
      expect(outcome(await post(path, form))).toEqual(NOT_FOUND);
    }
  });
});

describe('bad input to the other forms and pages: a 4xx page, never a 500', () => {
  test('tags', async () => {
    const user = await stack.domain.repos.users.findById(userId);
    const { component } = await aComponentWithVariants(stack.domain, user!, 1);
    const tooMany = Array.from({ length: 60 }, (_, i) => `t${i}`).join(',');
    const results = {
      tooLong: outcome(await post(`/component/${component.id}/tags`, { tags: 'x'.repeat(200) })),
      tooMany: outcome(await post(`/component/${component.id}/tags`, { tags: tooMany })),
      unknown: outcome(await post(`/component/${UNKNOWN}/tags`, { tags: 'a' })),
      malformed: outcome(await post(`/component/${MALFORMED}/tags`, { tags: 'a' })),
    };
    expect(results).toMatchSnapshot();
    expect(Object.values(results).every((r) => r.status >= 400 && r.status < 500)).toBe(true);
  });

  test('publish', async () => {
    const user = await stack.domain.repos.users.findById(userId);
    const { component, variants } = await aComponentWithVariants(stack.domain, user!, 1);
    const v = variants[0]!.id;
    const results = {
      unknownEnvironment: outcome(await post(`/component/${component.id}/publish`, { environment: 'nowhere', variant: v })),
      malformedEnvironment: outcome(await post(`/component/${component.id}/publish`, { environment: 'No Where', variant: v })),
      emptyEnvironment: outcome(await post(`/component/${component.id}/publish`, { environment: '', variant: v })),
      unknownVariant: outcome(await post(`/component/${component.id}/publish`, { environment: 'prod', variant: UNKNOWN })),
      malformedVariant: outcome(await post(`/component/${component.id}/publish`, { environment: 'prod', variant: MALFORMED })),
      unknownComponent: outcome(await post(`/component/${UNKNOWN}/publish`, { environment: 'prod', variant: v })),
      malformedComponent: outcome(await post(`/component/${MALFORMED}/publish`, { environment: 'prod', variant: v })),
      confirmMalformedVariant: outcome(await open(`/component/${component.id}/publish?variant=${MALFORMED}`)),
      confirmNoVariant: outcome(await open(`/component/${component.id}/publish`)),
    };
    expect(results).toMatchSnapshot();
    expect(Object.values(results).every((r) => r.status >= 400 && r.status < 500)).toBe(true);
  });

  test('flows', async () => {
    const flow = await post(`/orgs/${orgId}/flows`, { name: 'Checkout' });
    const flowId = /\/flows\/([^?]+)/.exec(flow.url)![1]!;
    const results = {
      emptyName: outcome(await post(`/orgs/${orgId}/flows`, { name: '' })),
      longName: outcome(await post(`/orgs/${orgId}/flows`, { name: 'x'.repeat(201) })),
      unknownOrg: outcome(await post(`/orgs/${UNKNOWN}/flows`, { name: 'x' })),
      malformedOrg: outcome(await post(`/orgs/${MALFORMED}/flows`, { name: 'x' })),
      unknownComponent: outcome(await post(`/flows/${flowId}/components`, { op: 'add', component: UNKNOWN })),
      malformedComponent: outcome(await post(`/flows/${flowId}/components`, { op: 'add', component: MALFORMED })),
      unknownFlow: outcome(await post(`/flows/${UNKNOWN}/components`, { op: 'add', component: UNKNOWN })),
      malformedFlow: outcome(await post(`/flows/${MALFORMED}/status`, { status: 'published' })),
      malformedFlowPage: outcome(await open(`/flows/${MALFORMED}`)),
    };
    expect(results).toMatchSnapshot();
    expect(Object.values(results).every((r) => r.status >= 400 && r.status < 500)).toBe(true);
  });

  test('pages and the rest', async () => {
    const results = {
      component: outcome(await open(`/component/${MALFORMED}`)),
      unknownComponent: outcome(await open(`/component/${UNKNOWN}`)),
      components: outcome(await open(`/orgs/${MALFORMED}/components`)),
      pageZero: outcome(await open(`/orgs/${orgId}/components?page=0`)),
      pageText: outcome(await open(`/orgs/${orgId}/components?page=abc`)),
      pageFar: outcome(await open(`/orgs/${orgId}/components?page=1001`)),
      environments: outcome(await open(`/orgs/${MALFORMED}/environments`)),
      flows: outcome(await open(`/orgs/${MALFORMED}/flows`)),
      revokeUnknown: outcome(await post(`/applications/${UNKNOWN}/revoke`, {})),
      revokeMalformed: outcome(await post(`/applications/${MALFORMED}/revoke`, {})),
      nothing: outcome(await open('/nothing-here')),
    };
    expect(results).toMatchSnapshot();
    expect(Object.values(results).every((r) => r.status >= 400 && r.status < 500)).toBe(true);
  });

  test('a form body over 32 kB or with more than 50 fields: 413, not a 500', async () => {
    const tooLarge = { status: 413, title: 'That did not work', message: 'The form is too large.' };
    expect(outcome(await post(`/orgs/${orgId}/environments`, { name: 'x'.repeat(40_000) }))).toEqual(tooLarge);
    expect(outcome(await post(`/orgs/${orgId}/environments`, Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}`, 'x']))))).toEqual(tooLarge);
  });
});
