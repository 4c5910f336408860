/* eslint-disable @typescript-eslint/no-explicit-any -- tool results are JSON, checked by assertions */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ServiceProcess } from './topology/processes.js';
import { DATABASE_URL, describeWithPostgres, page, putThroughCurl, sleep, until } from './topology/test-kit.js';
import { startTopology, type Topology } from './topology/start-topology.js';

/*
 * Production topology without Docker (issue 6): each service its own process, as
 * production runs it, against PostgreSQL (a fresh database), an S3 server (the one
 * S3_ENDPOINT names, e.g. the Ceph RADOS Gateway of packages/storage/scripts/rgw.sh,
 * else the embedded one) and, when REDIS_URL is set (CI sets it), Redis for the MCP
 * rate limits and the auth throttles. One auth server, one MCP server, two delivery
 * instances. The whole flow across them, then SIGKILL and restart of a delivery
 * instance and of the MCP server under load: no confirmed upload lost, clients recover.
 */

const run = describeWithPostgres('production-topology', '(and REDIS_URL=redis://127.0.0.1:6379 to include Redis)');

let topology: Topology;
let auth: ServiceProcess;
let mcp: ServiceProcess;
let deliveries: readonly ServiceProcess[];
let mcpUrl: string;

run('production topology: separate processes on PostgreSQL, S3 and Redis', () => {
  beforeAll(async () => {
    topology = await startTopology({ databaseUrl: DATABASE_URL!, redisUrl: process.env.REDIS_URL });
    ({ auth, mcp, deliveries, mcpUrl } = topology);
  }, 90_000);

  afterAll(async () => {
    const codes = (await topology?.close()) ?? [];
    // Graceful shutdown: every service exits 0 on SIGTERM.
    expect(codes).toEqual(codes.map(() => 0));
  }, 30_000);

  test('OAuth, upload, publish, consume from both instances; kill and restart under load; revocation', async () => {
    // OAuth with the SDK client (sign-up and consent over HTTP) ran in startTopology.
    const { browser, provider } = topology;
    const connect = () => topology.mcpClient();

    const call = async (client: Client, name: string, args: Record<string, unknown>): Promise<any> => {
      const result: any = await client.callTool({ name, arguments: args });
      if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.structuredContent)}`);
      return result.structuredContent;
    };
    const uploadOnce = async (client: Client, args: Record<string, unknown>, title: string): Promise<any> => {
      const started = await call(client, 'upload_component', args);
      await putThroughCurl(started.curlCommand as string, title);
      const result: unknown = await call(client, 'confirm_upload', { uploadId: started.uploadId });
      return result;
    };

    // --- Upload, confirm, publish; /consume from both delivery instances.
    const client = await connect();
    const first = await uploadOnce(client, { name: `Topology ${Date.now()}` }, 'v1');
    const componentId = first.componentId as string;
    await call(client, 'publish_component', { componentId, environment: 'prod' });
    const consume = `/consume?id=${componentId}&env=prod`;
    const bodies = await Promise.all(deliveries.map(async (d) => (await fetch(d.url + consume)).json()));
    for (const body of bodies) expect((body as any).item.consume_variant[0]).toMatchObject({ id: first.variantId, loader: { HTML: page('v1') } });
    await client.close();

    // --- Steady load: upload rounds (a new client per round, as a reconnecting client) and /consume on both instances.
    const confirmed: string[] = [];
    const log = { uploadFailures: 0, consume: new Map<string, { ok: number; failed: number }>() };
    let loading = true;
    const uploads = (async () => {
      let n = 0;
      while (loading) {
        try {
          const c = await connect();
          try {
            const result = await uploadOnce(c, { componentId }, `load ${++n}`);
            confirmed.push(result.variantId as string);
          } finally {
            await c.close().catch(() => undefined);
          }
        } catch {
          log.uploadFailures += 1;
          await sleep(100);
        }
      }
    })();
    const consumers = deliveries.flatMap((d) =>
      [0, 1].map(async () => {
        const tally = log.consume.get(d.name) ?? { ok: 0, failed: 0 };
        log.consume.set(d.name, tally);
        while (loading) {
          try {
            const res = await fetch(d.url + consume, { signal: AbortSignal.timeout(2000) });
            await res.arrayBuffer();
            if (res.status === 200) tally.ok += 1;
            else tally.failed += 1;
          } catch {
            tally.failed += 1;
            await sleep(50);
          }
        }
      }),
    );

    await until(() => confirmed.length > 0, 'an upload confirmed under load');
    await deliveries[1]!.kill();
    await sleep(500);
    await deliveries[1]!.start();
    await mcp.kill();
    await sleep(500);
    await mcp.start();
    const afterRestart = confirmed.length;
    await until(() => confirmed.length > afterRestart, 'an upload confirmed after the MCP restart');
    await sleep(1000);
    loading = false;
    await Promise.all([uploads, ...consumers]);

    // Clients recovered (the waits above: uploads confirmed after the MCP restart); /consume answers on the restarted instance.
    expect(log.consume.get('delivery-1')).toMatchObject({ failed: 0 });
    expect((await fetch(deliveries[1]!.url + consume)).status).toBe(200);

    // No confirmed upload lost: every confirm that answered success is a listed variant.
    const verify = await connect();
    const listed = await call(verify, 'list_variants', { componentId, limit: 100 });
    const ids = new Set((listed.variants as { variantId: string }[]).map((v) => v.variantId));
    expect(confirmed.length).toBeLessThan(100);
    expect(confirmed.filter((id) => !ids.has(id))).toEqual([]);
    expect(ids.has(first.variantId as string)).toBe(true);
    // Publishing the latest reaches both instances (invalidation across processes).
    const latest = await call(verify, 'publish_component', { componentId, environment: 'prod' });
    await sleep(1500);
    for (const d of deliveries) {
      const body: any = await (await fetch(d.url + consume)).json();
      expect(body.item.consume_variant[0].id).toBe(latest.variantId);
    }
    await verify.close();

    // --- Revocation in /account: the MCP server refuses the token within its grant cache (1 s here).
    const account = await browser.open(`${auth.url}/account`);
    await browser.submit(account, {}, { action: /\/revoke$/ });
    const rawCall = () =>
      fetch(mcpUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${provider.saved!.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } }),
      });
    const revokedAt = Date.now();
    let status = (await rawCall()).status;
    while (status === 200 && Date.now() - revokedAt < 10_000) {
      await sleep(250);
      status = (await rawCall()).status;
    }
    expect(status).toBe(401);

    console.log(
      `production-topology: ${confirmed.length} uploads confirmed under load (${log.uploadFailures} failed attempts while the MCP server was down), ` +
        [...log.consume].map(([name, t]) => `${name} ${t.ok} ok / ${t.failed} failed`).join(', '),
    );
  }, 120_000);
});
