import { aComponent } from '@cp/db/testing';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';
import { textOf } from '../support/html.js';
import { FormBrowser, headline, signInThrough } from '../support/sign-in.js';

/* A new user's organization has no component yet: the components page tells them how to upload one from their assistant. */

const MCP_URL = 'https://mcp.example.test/mcp';

let stack: DashboardStack;
beforeAll(async () => {
  stack = await startDashboardStack({ config: { mcpUrl: MCP_URL } });
}, 60_000);
afterAll(async () => {
  await stack?.close();
});

test('after the first sign-in: how to connect Claude Code, Cursor or VS Code to this tool server, then upload', async () => {
  const user = await anAccount(stack.auth);
  const { page } = await signInThrough(new FormBrowser(), stack.url, '/', user);
  expect([page.status, page.url]).toEqual([200, `${stack.url}/orgs/${user.defaultOrganizationId}/components`]);
  expect(page.html).toContain('<p>This organization has no component yet.</p>');
  expect(page.html).toContain(`<pre><code>claude mcp add --transport http components ${MCP_URL}</code></pre>`);
  const section = textOf(/<section aria-labelledby="first-upload">([\s\S]*?)<\/section>/.exec(page.html)?.[1] ?? '');
  expect(section).toContain(`Cursor ( ~/.cursor/mcp.json ): { "mcpServers": { "components": { "url": "${MCP_URL}" } } }`);
  expect(section).toContain(`VS Code ( .vscode/mcp.json ): { "servers": { "components": { "type": "http", "url": "${MCP_URL}" } } }`);
  expect(section).toContain('Build your component into dist/index.html .');
  expect(section).toContain('calls upload_component , runs the upload command, then confirm_upload');
  expect(page.html).not.toContain('<table');
  expect(page.html).not.toContain('class="pager"');
});

test('gone once the organization has a component', async () => {
  const user = await anAccount(stack.auth);
  const browser = new FormBrowser();
  await signInThrough(browser, stack.url, '/', user);
  await aComponent(stack.domain.repos, { organizationId: user.defaultOrganizationId, createdBy: user.id, name: 'First' });
  const page = await browser.open(`${stack.url}/orgs/${user.defaultOrganizationId}/components`);
  expect(headline(page).title).toMatch(/^Components of /);
  expect(page.html).not.toContain('claude mcp add');
  expect(page.html).not.toContain('This organization has no component yet.');
  expect(page.html).toContain('>First</a>');
});
