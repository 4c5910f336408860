/* eslint-disable @typescript-eslint/no-explicit-any -- tool results are JSON */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { HostHarness } from '../../apps/delivery-api/test/host/support/host-harness.js';
import { aProject, runInShell } from '../../apps/mcp-server/test/support/upload.js';

const version = (n: number) => `<!doctype html><html><body><p>version ${n}</p><script>window.cpReceive = () => {};</script></body></html>`;

/**
 * For each trial: a new variant uploaded through the MCP tools (not timed),
 * then publish_component; the time from its return (wall clock, read in this
 * process) to the page's `cp-load` of that variant (wall clock, read in the page).
 */
export async function measureLiveSwitch(host: HostHarness, client: Client, isolation: 'iframe' | 'shadow', trials: number): Promise<number[]> {
  const call = async (name: string, args: Record<string, unknown>): Promise<any> => {
    const result: any = await client.callTool({ name, arguments: args });
    if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.structuredContent)}`);
    return result.structuredContent;
  };
  const upload = async (n: number, componentId?: string) => {
    const project = await aProject(version(n));
    const started = await call('upload_component', componentId ? { componentId } : { name: `Live bench ${Date.now()}` });
    await runInShell('sh', started.curlCommand, project.dir);
    return call('confirm_upload', { uploadId: started.uploadId });
  };

  const first = await upload(0);
  await call('publish_component', { componentId: first.componentId, environment: 'prod' });
  const { page, context } = await host.open(
    host.hostPage(`<cp-component id="c" component-id="${first.componentId}" env="prod" isolation="${isolation}" live></cp-component>
<script type="module">
  window.loads = new Map();
  document.getElementById('c').addEventListener('cp-load', (event) => window.loads.set(event.detail.variantId, Date.now()));
</script>`),
  );
  try {
    await page.waitForFunction((id) => (globalThis as any).loads?.has(id), first.variantId);
    const latencies: number[] = [];
    for (let n = 1; n <= trials; n++) {
      const next = await upload(n, first.componentId);
      await call('publish_component', { componentId: first.componentId, environment: 'prod' });
      const publishedAt = Date.now();
      const loadedAt = await page.waitForFunction((id) => (globalThis as any).loads.get(id), next.variantId, { timeout: 30_000 });
      latencies.push(Number(await loadedAt.jsonValue()) - publishedAt);
    }
    return latencies;
  } finally {
    await context.close();
  }
}
