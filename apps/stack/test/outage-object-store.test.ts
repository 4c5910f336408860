/* eslint-disable @typescript-eslint/no-explicit-any -- tool results are JSON, checked by assertions */
import { Agent, request } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DATABASE_URL, describeWithPostgres, putThroughCurl, sleep } from './topology/test-kit.js';
import { startTopology, type Topology } from './topology/start-topology.js';

/*
 * Issue 24, the object store down in the production topology: each service its own
 * process, against PostgreSQL and an S3 server (the RADOS Gateway in CI, else the
 * embedded one) that the MCP server and the delivery instance reach through a TCP
 * fault proxy. Requests flow in a small bounded loop while the proxy refuses, then
 * hangs, then forwards again; a confirm_upload is tried in each phase. Then the
 * delivery instance is SIGTERMed under keep-alive load. One line of figures is printed.
 */

const run = describeWithPostgres('outage-object-store');
const PHASE_MS = 3000;

type Outcome = { status: number; ms: number } | { error: string; ms: number };

/** One GET on its own connection (or the given keep-alive agent); never throws. */
const get = (url: string, agent: Agent | false = false) =>
  new Promise<Outcome>((resolve) => {
    const started = performance.now();
    const done = (outcome: { status: number } | { error: string }) => resolve({ ...outcome, ms: performance.now() - started });
    const req = request(url, { agent, timeout: 10_000 }, (res) => {
      res.resume();
      res.on('end', () => done({ status: res.statusCode ?? 0 }));
      res.on('error', (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }));
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('no answer in 10 s'), { code: 'TIMEOUT' })));
    req.on('error', (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }));
    req.end();
  });

const tally = (outcomes: readonly Outcome[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) {
    const key = 'status' in outcome ? String(outcome.status) : outcome.error;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
};
const slowest = (outcomes: readonly Outcome[]) => Math.round(Math.max(0, ...outcomes.map((outcome) => outcome.ms)));

let topology: Topology;
let sigtermCode: number | null | undefined;

run('object store down, then SIGTERM under load (production topology)', () => {
  beforeAll(async () => {
    topology = await startTopology({
      databaseUrl: DATABASE_URL!,
      redisUrl: process.env.REDIS_URL,
      deliveries: 1,
      s3Proxy: true,
      // Entries turn stale after 1 s, so the outage also exercises stale-if-error.
      env: { DELIVERY_CACHE_TTL_SECONDS: '1' },
    });
  }, 90_000);

  afterAll(async () => {
    const codes = (await topology?.close()) ?? [];
    // Every service exits 0 on SIGTERM (the delivery instance was stopped by the test: null here).
    expect(codes.filter((code) => code !== null)).toEqual(codes.filter((code) => code !== null).map(() => 0));
  }, 30_000);

  test('cached variants stay 200, uncached ones 503 within 1 s, confirm_upload says the store is unavailable; all back without a restart, no write lost', async () => {
    const proxy = topology.s3Proxy!;
    const delivery = topology.deliveries[0]!;
    const client: Client = await topology.mcpClient();
    const call = async (name: string, args: Record<string, unknown>): Promise<any> =>
      ((await client.callTool({ name, arguments: args })) as any).structuredContent;
    /** upload_component and the handed-out curl (to the S3 server itself, not through the proxy). */
    const staged = async (title: string): Promise<string> => {
      const started = await call('upload_component', { name: `${title} ${Date.now()}` });
      await putThroughCurl(started.curlCommand as string, title);
      return started.uploadId as string;
    };
    const published = async (title: string): Promise<string> => {
      const confirmed = await call('confirm_upload', { uploadId: await staged(title) });
      expect(confirmed.success).toBe(true);
      expect((await call('publish_component', { componentId: confirmed.componentId, environment: 'prod' })).success).toBe(true);
      return confirmed.componentId as string;
    };
    const consume = (id: string) => `${delivery.url}/consume?id=${id}&env=prod`;

    // Acknowledged writes before the outage: a served component, and components never read yet.
    const cachedId = await published('Cached');
    const uncachedIds = [await published('Uncached 1'), await published('Uncached 2')];
    expect(tally([await get(consume(cachedId))])).toEqual({ '200': 1 });
    const pendingUploads = [await staged('Refused'), await staged('Hung')];

    // The bounded loop: the cached variant and an uncached one, one after the other, until stopped.
    type Phase = 'refused' | 'hung';
    const phases: Record<Phase, { cached: Outcome[]; uncached: Outcome[] }> = {
      refused: { cached: [], uncached: [] },
      hung: { cached: [], uncached: [] },
    };
    let phase = null as Phase | null;
    let flowing = true;
    const loop = (async () => {
      for (let i = 0; flowing; i += 1) {
        const current: Phase | null = phase;
        const [cached, uncached] = await Promise.all([get(consume(cachedId)), get(consume(uncachedIds[i % 2]!))]);
        if (current !== null && current === phase) {
          phases[current].cached.push(cached);
          phases[current].uncached.push(uncached);
        }
        await sleep(50);
      }
    })();

    await proxy.refuse();
    phase = 'refused';
    const refusedConfirm = await timedCall(() => call('confirm_upload', { uploadId: pendingUploads[0] }));
    await sleep(PHASE_MS);
    await proxy.restore();
    proxy.hang();
    phase = 'hung';
    const hungConfirm = await timedCall(() => call('confirm_upload', { uploadId: pendingUploads[1] }));
    await sleep(PHASE_MS);
    phase = null;

    const restoredAt = performance.now();
    await proxy.restore();
    let recoveredMs = Number.NaN;
    for (const deadline = restoredAt + 5000; performance.now() < deadline; await sleep(25)) {
      const outcomes = await Promise.all(uncachedIds.map((id) => get(consume(id))));
      if (outcomes.every((outcome) => 'status' in outcome && outcome.status === 200)) {
        recoveredMs = performance.now() - restoredAt;
        break;
      }
    }
    flowing = false;
    await loop;

    // After recovery, the sessions cut by the outage confirm; every acknowledged write is there.
    const confirmedAfter = [];
    for (const uploadId of pendingUploads) confirmedAfter.push(await call('confirm_upload', { uploadId }));
    const acknowledged = [cachedId, ...uncachedIds];
    for (const confirmed of confirmedAfter) {
      expect(confirmed.success).toBe(true);
      await call('publish_component', { componentId: confirmed.componentId, environment: 'prod' });
      acknowledged.push(confirmed.componentId as string);
    }
    const lost = (await Promise.all(acknowledged.map((id) => get(consume(id))))).filter((outcome) => !('status' in outcome) || outcome.status !== 200).length;
    await client.close();

    const all = (which: 'cached' | 'uncached') => [...phases.refused[which], ...phases.hung[which]];
    console.log(
      `outage-object-store: recovered in ${Math.round(recoveredMs)} ms; during the outage, cached ${JSON.stringify(tally(all('cached')))}` +
        ` (slowest ${slowest(all('cached'))} ms), uncached ${JSON.stringify(tally(all('uncached')))} (slowest ${slowest(all('uncached'))} ms);` +
        ` confirm_upload ${refusedConfirm.code} in ${refusedConfirm.ms} ms refused, ${hungConfirm.code} in ${hungConfirm.ms} ms hung; lost writes ${lost}`,
    );

    for (const which of ['refused', 'hung'] as const) {
      expect(phases[which].cached.length).toBeGreaterThan(0);
      expect(tally(phases[which].cached)).toEqual({ '200': phases[which].cached.length });
      expect(tally(phases[which].uncached)).toEqual({ '503': phases[which].uncached.length });
    }
    expect(slowest(all('uncached'))).toBeLessThan(1500);
    expect(refusedConfirm.code).toBe('STORE_UNAVAILABLE');
    expect(hungConfirm.code).toBe('STORE_UNAVAILABLE');
    expect(hungConfirm.ms).toBeLessThan(4000);
    expect(recoveredMs).toBeLessThan(5000);
    expect(lost).toBe(0);
  }, 60_000);

  test('SIGTERM under keep-alive load: every request the delivery instance accepted is answered 200, none reset', async () => {
    const delivery = topology.deliveries[0]!;
    const ids = await topology.db.prisma.component.findMany({ select: { id: true } });
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const outcomes: Outcome[] = [];
    let flowing = true;
    const worker = async (n: number) => {
      for (let i = n; flowing; i += 1) {
        const outcome = await get(`${delivery.url}/consume?id=${ids[i % ids.length]!.id}&env=prod`, agent);
        outcomes.push(outcome);
        // Refused: the listener is closed, nothing was accepted (a balancer retries elsewhere).
        if ('error' in outcome && outcome.error === 'ECONNREFUSED') return;
      }
    };
    const workers = Array.from({ length: 8 }, (_, n) => worker(n));
    await sleep(500);
    sigtermCode = await delivery.stop();
    flowing = false;
    await Promise.all(workers);
    agent.destroy();

    const counts = tally(outcomes);
    console.log(`sigterm-under-load: delivery exited ${sigtermCode}; answers ${JSON.stringify(counts)}`);
    expect(sigtermCode).toBe(0);
    expect(counts['200']).toBeGreaterThan(20);
    expect(Object.keys(counts).filter((key) => key !== '200' && key !== 'ECONNREFUSED')).toEqual([]);
  }, 30_000);
});

async function timedCall(call: () => Promise<any>): Promise<{ code: string; ms: number }> {
  const started = performance.now();
  const result = await call();
  return { code: result.success ? 'success' : (result.error?.code as string), ms: Math.round(performance.now() - started) };
}
