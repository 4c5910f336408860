/* eslint-disable @typescript-eslint/no-explicit-any -- tool results are JSON, checked by assertions */
import { aUser, startHarness, type Harness } from '../../../mcp-server/test/support/harness.js';
import { aProject, runInShell } from '../../../mcp-server/test/support/upload.js';
import { startHostHarness, type HostHarness } from './support/host-harness.js';

/*
 * The whole live path as a team meets it: a host page shows the prod release
 * with `live`; an assistant uploads a new version and runs publish_component
 * through the MCP server (its own app, the MCP SDK client, the same database
 * and S3); the page switches to it without a reload, keeping the host's data,
 * never showing an empty element in between.
 */

let host: HostHarness;
let mcp: Harness;
let call: (name: string, args: Record<string, unknown>) => Promise<Record<string, string>>;

beforeAll(async () => {
  host = await startHostHarness();
  mcp = await startHarness({ domain: host.stack.domain });
  const client = await mcp.connect(await mcp.tokenFor(await aUser(host.stack.domain)));
  call = async (name, args) => {
    const result: any = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
    return result.structuredContent as Record<string, string>;
  };
}, 60_000);

afterAll(async () => {
  await mcp?.close();
  await host?.close();
});

const version = (label: string) => `<!doctype html><html><body><p id="v">${label}</p><p id="d"></p>
<script>{ const root = window.cpRoot; window.cpReceive = (data) => { root.getElementById('d').textContent = data.greeting; }; }</script></body></html>`;

async function uploadThroughTools(html: string, componentId?: string): Promise<{ componentId: string; variantId: string }> {
  const project = await aProject(html);
  const started = await call('upload_component', componentId ? { componentId } : { name: `Live ${Date.now()}` });
  await runInShell('sh', started.curlCommand!, project.dir);
  const confirmed = await call('confirm_upload', { uploadId: started.uploadId });
  return { componentId: confirmed.componentId!, variantId: confirmed.variantId! };
}

it.each(['iframe', 'shadow'] as const)('switches to a variant published through publish_component, keeping data (%s)', async (isolation) => {
  const first = await uploadThroughTools(version('one'));
  await call('publish_component', { componentId: first.componentId, environment: 'prod' });
  const { page } = await host.open(
    host.hostPage(`<cp-component id="c" component-id="${first.componentId}" env="prod" isolation="${isolation}" live></cp-component>
<script type="module">
  const element = document.getElementById('c');
  element.data = { greeting: 'hello from the host' };
  window.loads = [];
  element.addEventListener('cp-load', (event) => window.loads.push(event.detail.variantId));
  // Samples the element on every frame: it must never be empty once the first variant showed.
  window.emptyFrames = 0;
  const sample = () => { if (window.loads.length > 0 && element.getBoundingClientRect().height === 0) window.emptyFrames++; requestAnimationFrame(sample); };
  requestAnimationFrame(sample);
</script>`),
  );
  await page.waitForFunction(() => (globalThis as any).loads.length === 1);
  const read = (selector: string) =>
    isolation === 'iframe'
      ? page.frameLocator('cp-component iframe').locator(selector).textContent()
      : page.locator(`cp-component ${selector}`).textContent();
  expect(await read('#v')).toBe('one');
  expect(await read('#d')).toBe('hello from the host');

  const second = await uploadThroughTools(version('two'), first.componentId);
  await call('publish_component', { componentId: first.componentId, environment: 'prod' });

  await page.waitForFunction((id) => ((globalThis as any).loads as string[]).includes(id), second.variantId, { timeout: 10_000 });
  expect(await read('#v')).toBe('two');
  expect(await read('#d')).toBe('hello from the host');
  expect(await page.evaluate(() => (globalThis as any).emptyFrames as number)).toBe(0);
  expect(await page.locator('cp-component iframe').count()).toBe(isolation === 'iframe' ? 1 : 0);
});
