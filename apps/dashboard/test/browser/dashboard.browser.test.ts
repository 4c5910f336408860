/* eslint-disable @typescript-eslint/no-explicit-any -- tool results are JSON, checked by assertions */
import { mkdir } from 'node:fs/promises';
import { launchChromium, type Browser, type BrowserContext, type Page } from '@cp/browser-testing';
import { createRolloutFigures, createUsageReader } from '@cp/db';
import { PASSWORD } from '../../../auth-server/test/support/flow.js';
import { aPublicClient, authorizeUrl, pkce } from '../../../auth-server/test/support/oauth-client.js';
import { openTestStack, startInstance, type Instance, type TestStack } from '../../../delivery-api/test/support/test-stack.js';
import { startHarness, type Harness } from '../../../mcp-server/test/support/harness.js';
import { aProject, runInShell } from '../../../mcp-server/test/support/upload.js';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';

/*
 * The dashboard in headless Chromium against the real auth server (OIDC login),
 * the real MCP server (the upload) and the real delivery API (/consume), all on
 * one database and S3: the delivery API's test stack, whose change feed its
 * instance listens to, shared with the dashboard's stack (test/support).
 * Screenshots land in test-artifacts/.
 */

const ARTIFACTS = new URL('../../test-artifacts/', import.meta.url).pathname;

let data: TestStack;
let stack: DashboardStack;
let mcp: Harness;
let delivery: Instance;
let dashboardUrl: string;
let browser: Browser;

beforeAll(async () => {
  await mkdir(ARTIFACTS, { recursive: true });
  data = await openTestStack();
  [mcp, delivery] = await Promise.all([startHarness({ domain: data.domain }), startInstance(data)]);
  stack = await startDashboardStack({ shared: { repos: data.repos, objects: data.domain.objects, usage: createUsageReader(data.sql), rolloutFigures: createRolloutFigures(data.sql) }, config: { deliveryUrl: delivery.url, mcpUrl: mcp.mcpUrl } });
  dashboardUrl = stack.url;
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await mcp?.close();
  await delivery?.close();
  await data?.close();
});

const shot = (page: Page, name: string) => page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });

async function signIn(context: BrowserContext, email: string, start: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(start);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.origin === dashboardUrl, { timeout: 10_000 }).catch(async (error: unknown) => {
    throw new Error(`sign-in ended at ${page.url()}: ${(await page.content()).slice(0, 1500)}`, { cause: error });
  });
  return page;
}

async function upload(token: string, html: string, componentId?: string): Promise<any> {
  const client = await mcp.connect(token);
  const call = async (name: string, args: Record<string, unknown>): Promise<any> => {
    const result: any = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.structuredContent)}`);
    return result.structuredContent as unknown;
  };
  const project = await aProject(html);
  const started = await call('upload_component', componentId ? { componentId } : { name: 'Price tag' });
  await runInShell('sh', started.curlCommand, project.dir);
  return call('confirm_upload', { uploadId: started.uploadId });
}

const consumeProd = async (id: string) => {
  const res = await fetch(`${delivery.url}/consume?id=${id}&env=prod`);
  return { status: res.status, json: (await res.json()) as any };
};

it('log in, find the uploaded component, tag it, publish to staging, roll prod back, revoke an application; others get 404', async () => {
  const alice = await anAccount(stack.auth);
  const token = await mcp.tokenFor(alice);
  const first = await upload(token, '<!doctype html><html><body><h1>Price v1</h1></body></html>');
  const second = await upload(token, '<!doctype html><html><body><h1>Price v2</h1><script>document.body.dataset.ran = "yes"</script></body></html>', first.componentId);
  const componentId = first.componentId as string;

  const context = await browser.newContext();
  // The link confirm_upload hands out lands on the component after signing in.
  const page = await signIn(context, alice.email, `${dashboardUrl}/component/${componentId}`);
  expect(page.url()).toBe(`${dashboardUrl}/component/${componentId}`);
  expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Price tag');
  const frame = page.frameLocator('iframe.preview');
  expect(await frame.locator('h1').textContent()).toBe('Price v2');
  // The host SDK snippet for prod, as text to copy, beside its demo link on the delivery API.
  const prodSnippet = page.getByRole('row', { name: /Demo of prod/ }).locator('pre');
  expect(await prodSnippet.isVisible()).toBe(true);
  expect(await prodSnippet.textContent()).toBe(`<script type="module" src="${delivery.url}/host/v1.js"></script>\n<cp-component component-id="${componentId}" env="prod"></cp-component>`);
  expect(await page.getByRole('link', { name: 'Demo of prod' }).getAttribute('href')).toBe(`${delivery.url}/examples/host?component=${componentId}&env=prod`);
  await shot(page, 'component');

  // The components list: search by name, find it.
  await page.getByRole('link', { name: 'Components', exact: true }).click();
  await page.getByLabel('Name').fill('price');
  await page.getByRole('button', { name: 'Search' }).click();
  await shot(page, 'components');
  await page.getByRole('link', { name: 'Price tag' }).click();

  // Tags.
  await page.getByLabel('Edit tags').fill('pricing, ui ,ui');
  await page.getByRole('button', { name: 'Save tags' }).click();
  expect(await page.getByRole('status').textContent()).toContain('Tags saved.');
  expect((await data.repos.components.findById(componentId))?.tags).toEqual(['pricing', 'ui']);

  // Publish the latest (v2) to staging, with the confirmation step.
  await page.getByRole('row', { name: /staging/ }).getByRole('link', { name: 'Publish v2' }).click();
  await shot(page, 'publish-confirm');
  await page.getByRole('button', { name: 'Publish staging to v2' }).click();
  expect(await page.getByRole('status').textContent()).toContain('Published');

  // Prod: publish v2, then roll back to v1; /consume?env=prod follows.
  await page.getByRole('row', { name: /prod/ }).getByRole('link', { name: 'Publish v2' }).click();
  await page.getByRole('button', { name: 'Publish prod to v2' }).click();
  expect((await consumeProd(componentId)).json.item.consume_variant[0].id).toBe(second.variantId);
  await page.getByRole('row', { name: /prod/ }).getByRole('link', { name: 'Roll back to v1' }).click();
  await page.getByRole('button', { name: 'Roll back prod to v1' }).click();
  await shot(page, 'component-released');
  let served = '';
  for (let i = 0; i < 50 && served !== first.variantId; i += 1) {
    served = (await consumeProd(componentId)).json.item.consume_variant[0].id;
    if (served !== first.variantId) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  expect(served).toBe(first.variantId);

  // Environments and flows pages render.
  await page.getByRole('link', { name: 'Environments' }).click();
  await page.getByLabel('Name', { exact: true }).fill('eu-canary');
  await page.getByRole('button', { name: 'Add' }).click();
  expect(await page.getByRole('status').textContent()).toContain('Environment added.');
  await shot(page, 'environments');
  await page.getByRole('link', { name: 'Flows' }).click();
  await page.getByLabel('Name').fill('Checkout');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('button', { name: 'Publish' }).click();
  expect(await page.getByRole('status').textContent()).toContain('Flow published');
  await shot(page, 'flow');

  // A connected application (an MCP client authorized in this browser), revoked from the dashboard.
  const client = await aPublicClient(stack.auth.issuer, { client_name: 'Assistant under test' });
  const { challenge } = pkce();
  const authPage = await context.newPage();
  await authPage.goto(authorizeUrl(stack.auth.issuer, { client_id: client.client_id, response_type: 'code', redirect_uri: client.redirect_uris[0], scope: 'mcp:read mcp:write', code_challenge: challenge, code_challenge_method: 'S256', state: 's' }));
  await authPage.getByLabel('Email').fill(alice.email, { timeout: 1000 }).catch(() => undefined);
  if (await authPage.getByLabel('Password').isVisible().catch(() => false)) {
    await authPage.getByLabel('Password').fill(PASSWORD);
    await authPage.getByRole('button', { name: 'Sign in' }).click();
  }
  await Promise.all([authPage.waitForRequest((req) => req.url().startsWith(client.redirect_uris[0]!)), authPage.getByRole('button', { name: 'Allow' }).click()]);
  await page.goto(`${dashboardUrl}/applications`);
  await shot(page, 'applications');
  await page.getByRole('button', { name: 'Revoke Assistant under test' }).click();
  expect(await page.getByRole('status').textContent()).toContain('Access revoked');
  expect(await stack.auth.oidc.listGrants(alice.id).then((grants) => grants.filter((g) => g.clientId === client.client_id))).toEqual([]);

  // Another organization's user: 404 on every page and action of Alice's (test/http/other-organization.test.ts checks each route).
  const bob = await anAccount(stack.auth);
  const bobContext = await browser.newContext();
  const bobPage = await signIn(bobContext, bob.email, `${dashboardUrl}/`);
  // His organization is empty: the page says how to connect an assistant to this MCP server.
  expect(await bobPage.getByRole('heading', { name: 'Upload your first component' }).isVisible()).toBe(true);
  expect(await bobPage.locator('pre code').textContent()).toBe(`claude mcp add --transport http components ${mcp.mcpUrl}`);
  const csrf = await bobPage.locator('input[name=csrf_token]').first().inputValue();
  const orgId = alice.defaultOrganizationId;
  const envId = (await data.repos.environments.findByName(orgId, 'eu-canary'))!.id;
  const flowId = (await data.repos.flows.listForOrganization(orgId))[0]!.id;
  for (const path of [`/component/${componentId}`, `/component/${componentId}/variants/${first.variantId}/preview`, `/component/${componentId}/publish?variant=${first.variantId}`, `/orgs/${orgId}/components`, `/orgs/${orgId}/environments`, `/orgs/${orgId}/flows`, `/flows/${flowId}`, `/switch?org=${orgId}`]) {
    expect([path, (await bobContext.request.get(`${dashboardUrl}${path}`, { maxRedirects: 0 })).status()]).toEqual([path, 404]);
  }
  const posts: [string, Record<string, string>][] = [
    [`/component/${componentId}/tags`, { tags: 'x' }],
    [`/component/${componentId}/publish`, { environment: 'prod', variant: second.variantId }],
    [`/orgs/${orgId}/environments`, { name: 'bobs' }],
    [`/orgs/${orgId}/environments/${envId}/rename`, { name: 'bobs' }],
    [`/orgs/${orgId}/environments/${envId}/remove`, {}],
    [`/orgs/${orgId}/flows`, { name: 'x' }],
    [`/flows/${flowId}/components`, { op: 'remove', component: componentId }],
    [`/flows/${flowId}/status`, { status: 'draft' }],
  ];
  for (const [path, form] of posts) {
    expect([path, (await bobContext.request.post(`${dashboardUrl}${path}`, { form: { ...form, csrf_token: csrf }, maxRedirects: 0 })).status()]).toEqual([path, 404]);
  }
  expect((await data.repos.components.findById(componentId))?.tags).toEqual(['pricing', 'ui']);
  await shot(bobPage, 'empty-state');
  await bobContext.close();
  await context.close();
}, 150_000);
