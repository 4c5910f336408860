/* eslint-disable @typescript-eslint/no-explicit-any -- tool results are JSON, checked by assertions */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createDatabase, createRepositories, type Database } from '@cp/db';
import { newWebhookSecret } from '@cp/domain';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DATABASE_URL, describeWithPostgres, putThroughCurl, sleep } from './topology/test-kit.js';
import { PASSWORD, startTopology, type Topology } from './topology/start-topology.js';

/*
 * Issue 24: PostgreSQL cut under the production topology (separate processes) while
 * requests flow. The services reach PostgreSQL through a fault proxy that first
 * refuses connections (the server is down), then hangs them (a partition or a stalled
 * server), then lets them through again.
 *
 * The outage lasts seconds, not the issue's 30 s: each phase outlasts everything that
 * could hide it. The delivery cache's TTL is set shorter than a phase, so cached
 * answers come from stale-if-error, not from a still-fresh entry; every deadline
 * involved (the pool's connection and query deadlines, the delivery load timeout,
 * the readiness probe's, the change feed's heartbeat) is shorter than a phase, so a
 * longer cut would only repeat the same answers. What is measured: every answer's
 * status and time during the cut, the time until every service works again, a
 * release after recovery on both delivery instances, and the writes acknowledged
 * before, during and after (none lost, each with its webhook event).
 */

const run = describeWithPostgres('outage-postgres', '(and S3_* for an external S3 server)');
/** Each phase of the cut (refusing, then hanging): longer than the cache TTL and every deadline below. */
const PHASE_MS = 4000;
const CACHE_TTL_SECONDS = 3;

interface Answer {
  readonly probe: string;
  readonly status: number | 'no-answer';
  readonly ms: number;
  readonly detail: string;
}

let topology: Topology;
let database: Database;
let receiver: Server;
const received: { id: string; type: string; body: any }[] = [];

run('PostgreSQL outage under the production topology', () => {
  beforeAll(async () => {
    topology = await startTopology({
      databaseUrl: DATABASE_URL!,
      databaseProxy: true,
      dashboard: true,
      worker: true,
      env: { DELIVERY_CACHE_TTL_SECONDS: String(CACHE_TTL_SECONDS), DELIVERY_MAX_AGE_SECONDS: '1' },
    });
    database = await createDatabase({ databaseUrl: topology.db.url! });
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const parsed = JSON.parse(body);
        received.push({ id: String(req.headers['webhook-id']), type: String(parsed.type), body: parsed });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  }, 180_000);

  afterAll(async () => {
    await new Promise((done) => receiver?.close(done));
    await database?.close();
    const codes = (await topology?.close()) ?? [];
    // A service that did not exit cleanly, with the end of its output: the outage must not have killed it.
    const failed = codes.flatMap((code, i) => (code === 0 ? [] : [`${topology.services[i]?.name} exited ${code}:\n${topology.services[i]?.recentOutput}`]));
    expect(failed).toEqual([]);
  }, 60_000);

  test('cached answers keep coming, the rest fail fast and say so, everything comes back by itself, no write lost', async () => {
    const { deliveries, dashboard, auth, worker, mcp, databaseProxy: proxy } = topology;
    const services = topology.services;
    const client = await topology.mcpClient();
    const call = async (c: Client, name: string, args: Record<string, unknown>): Promise<any> => {
      const result: any = await c.callTool({ name, arguments: args });
      if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.structuredContent)}`);
      return result.structuredContent;
    };
    const upload = async (args: Record<string, unknown>, title: string): Promise<any> => {
      const started = await call(client, 'upload_component', args);
      await putThroughCurl(started.curlCommand as string, title);
      return call(client, 'confirm_upload', { uploadId: started.uploadId });
    };

    // --- Before: two components (one that the deliveries will have served, one they never did), a flow, a webhook endpoint.
    const { organizations } = await call(client, 'list_organizations', {});
    const organizationId = organizations[0].id as string;
    const userId = (await call(client, 'whoami', {})).userId as string;
    const served = await upload({ name: `Served ${randomUUID()}`, organization: organizationId }, 'served v1');
    const uncached = await upload({ name: `Uncached ${randomUUID()}`, organization: organizationId }, 'uncached v1');
    await call(client, 'publish_component', { componentId: served.componentId, environment: 'prod' });
    await call(client, 'publish_component', { componentId: uncached.componentId, environment: 'prod' });
    const repos = createRepositories(database);
    const now = new Date();
    const flow = await repos.flows.create({ id: randomUUID(), organizationId, name: `Flow ${randomUUID()}`, componentIds: [served.componentId], now, audit: { eventId: randomUUID(), actorId: userId } });
    await repos.flows.setStatus(flow.id, 'published', now, { eventId: randomUUID(), actorId: userId });
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    await repos.webhookEndpoints.create(
      { id: randomUUID(), organizationId, url: receiverUrl, eventTypes: ['component.tags_changed', 'release.published'], secret: newWebhookSecret(), enabled: true, createdBy: userId, createdAt: now },
      10,
      { eventId: randomUUID(), actorId: userId },
    );
    const consumePath = (id: string) => `/consume?id=${id}&env=prod`;
    const flowPath = `/flow?id=${flow.id}&resolve=components`;
    for (const d of deliveries) {
      for (const path of [consumePath(served.componentId), flowPath]) expect((await fetch(d.url + path)).status).toBe(200);
    }
    // The dashboard session: through the auth server, whose session the OAuth sign-up left.
    const { browser } = topology;
    const toAuthServer = await browser.open(`${dashboard!.url}/`);
    const login = await browser.open(toAuthServer.url);
    // The auth server's session may already cover it (straight back), else its login form.
    const back = login.url.startsWith(dashboard!.url) ? login : await browser.submit(login, { email: topology.email, password: PASSWORD }, { action: /\/login$/ });
    const landing = await browser.open(back.url);
    expect(landing.status).toBe(200);
    expect(landing.url.startsWith(dashboard!.url)).toBe(true);

    // --- The probes, one round of each while requests flow.
    const token = topology.provider.saved!.access_token;
    const timed = async (probe: string, fn: (signal: AbortSignal) => Promise<{ status: number; detail?: string }>): Promise<Answer> => {
      const start = performance.now();
      try {
        const { status, detail = '' } = await fn(AbortSignal.timeout(8000));
        return { probe, status, ms: Math.round(performance.now() - start), detail };
      } catch (error) {
        return { probe, status: 'no-answer', ms: Math.round(performance.now() - start), detail: String(error) };
      }
    };
    const get = (url: string, headers: Record<string, string> = {}) => async (signal: AbortSignal) => {
      const res = await fetch(url, { signal, headers, redirect: 'manual' });
      const text = await res.text();
      return { status: res.status, detail: `${res.headers.get('retry-after') ?? '-'} ${res.headers.get('content-type') ?? ''} ${text.slice(0, 300)}` };
    };
    const cookie = () => browser.cookieHeader();
    const mcpCall = (name: string, args: Record<string, unknown>) => async (signal: AbortSignal) => {
      const res = await fetch(topology.mcpUrl, {
        method: 'POST',
        signal,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
      });
      const text = await res.text();
      const json = /^data: (.*)$/m.exec(text)?.[1] ?? text;
      let result: any = null;
      try {
        result = JSON.parse(json).result;
      } catch {
        // not JSON: the status says what happened
      }
      // A tool error is reported as 200 + isError: count it as what it stands for.
      const status = res.status === 200 && result?.isError === true ? 503 : res.status;
      return { status, detail: result ? JSON.stringify(result.structuredContent ?? result).slice(0, 300) : text.slice(0, 300) };
    };
    let tag = 0;
    const acknowledgedTags: string[] = [];
    // `uncached`: no instance serves it before the cut (an error is never cached), so the cache cannot answer it during it.
    const round = (withUncached = true): Promise<Answer[]> => {
      const name = `t${++tag}`;
      return Promise.all([
        ...deliveries.flatMap((d) => [
          timed(`cached /consume (${d.name})`, get(d.url + consumePath(served.componentId))),
          timed(`cached /flow (${d.name})`, get(d.url + flowPath)),
          ...(withUncached ? [timed(`uncached /consume (${d.name})`, get(d.url + consumePath(uncached.componentId)))] : []),
        ]),
        timed('MCP list_components', mcpCall('list_components', { organizationId })),
        timed('MCP edit_component_tags', async (signal) => {
          const answer = await mcpCall('edit_component_tags', { componentId: served.componentId, add: [name] })(signal);
          if (answer.status === 200) acknowledgedTags.push(name);
          return answer;
        }),
        timed('dashboard page', get(`${dashboard!.url}/orgs/${organizationId}/components`, { cookie: cookie() })),
        timed('auth /account', get(`${auth.url}/account`, { cookie: cookie() })),
        // Liveness: `/`, the dashboard's `/health` (its `/` is a page).
        ...services.flatMap((s) => [timed(`/ready (${s.name})`, get(`${s.url}/ready`)), timed(`/ (${s.name})`, get(`${s.url}${s === dashboard ? '/health' : '/'}`))]),
      ]);
    };
    const during: Answer[] = [];
    const flowFor = async (ms: number) => {
      const until = Date.now() + ms;
      while (Date.now() < until) {
        during.push(...(await round()));
        await sleep(200);
      }
    };

    // Everything answers before the cut (the writes too).
    const before = await round(false);
    expect(before.filter((a) => a.status !== 200)).toEqual([]);

    // --- The cut: refusing, then hanging.
    await proxy!.refuse();
    await flowFor(PHASE_MS);
    await proxy!.restore();
    proxy!.hang();
    await flowFor(PHASE_MS);
    const metrics = await Promise.all(services.map(async (s) => [s.name, await (await fetch(`${s.url}/metrics`)).text()] as const));

    // --- Back: time until every service works again, without a restart.
    const restoredAt = performance.now();
    await proxy!.restore();
    let recovered: Answer[] = [];
    for (;;) {
      recovered = await round();
      if (recovered.every((a) => a.status === 200) || performance.now() - restoredAt > 20_000) break;
      await sleep(100);
    }
    const recoverMs = Math.round(performance.now() - restoredAt);

    // A release after recovery reaches every delivery instance through the change feed:
    // each has the component fresh in its cache when it is published.
    const next = await upload({ componentId: served.componentId }, 'served v2');
    for (const d of deliveries) await fetch(d.url + consumePath(served.componentId));
    await call(client, 'publish_component', { componentId: served.componentId, environment: 'prod', variantId: next.variantId });
    const publishedAt = performance.now();
    const seenMs = await Promise.all(
      deliveries.map(async (d) => {
        for (;;) {
          const body: any = await (await fetch(d.url + consumePath(served.componentId))).json();
          if (body.item.consume_variant[0].id === next.variantId || performance.now() - publishedAt > 10_000) return Math.round(performance.now() - publishedAt);
          await sleep(50);
        }
      }),
    );

    // Writes: every acknowledged tag is there; every acknowledged write has its webhook event.
    const component = await call(client, 'get_component', { componentId: served.componentId });
    const lost = acknowledgedTags.filter((t) => !(component.component.tags as string[]).includes(t));
    const deliveredBy = Date.now() + 15_000;
    const tagEvents = () => new Set(received.filter((r) => r.type === 'component.tags_changed').map((r) => r.id)).size;
    while (tagEvents() < acknowledgedTags.length && Date.now() < deliveredBy) await sleep(200);
    await client.close();

    // --- Figures, one line per test.
    const byProbe = new Map<string, Map<string, number>>();
    for (const a of during) {
      const probe = a.probe.replace(/ \((delivery|auth|mcp|dashboard|worker)[^)]*\)/, '');
      const counts = byProbe.get(probe) ?? new Map<string, number>();
      byProbe.set(probe, counts);
      counts.set(String(a.status), (counts.get(String(a.status)) ?? 0) + 1);
    }
    const slowest = (probe: RegExp) => Math.max(0, ...during.filter((a) => probe.test(a.probe)).map((a) => a.ms));
    console.log(
      `outage-postgres: ${PHASE_MS / 1000} s refusing + ${PHASE_MS / 1000} s hanging; answers during the outage by status: ` +
        [...byProbe].map(([probe, counts]) => `${probe} ${[...counts].map(([s, n]) => `${n}x${s}`).join('/')}`).join(', ') +
        `; slowest: cached ${slowest(/^cached/)} ms, uncached /consume ${slowest(/^uncached/)} ms, MCP ${slowest(/^MCP/)} ms, dashboard ${slowest(/^dashboard/)} ms, auth ${slowest(/^auth/)} ms, /ready ${slowest(/^\/ready/)} ms` +
        `; recovered in ${recoverMs} ms; release after recovery served in ${seenMs.join(' / ')} ms; ` +
        `writes acknowledged ${acknowledgedTags.length}, lost ${lost.length}; tag webhooks received ${tagEvents()} of ${acknowledgedTags.length}`,
    );
    for (const s of services) if (during.some((a) => a.status === 500 && a.probe.includes(s.name.split('-')[0]!))) console.log(`${s.name} output:\n${s.recentOutput}`);
    const failures = (probe: RegExp, ok: (a: Answer) => boolean) => during.filter((a) => probe.test(a.probe) && !ok(a));
    const problemOf = (a: Answer) => a.detail;

    // --- During: cached answers 200; the rest a clear 503 in bounded time; never a 500, never a hang.
    expect(failures(/^cached/, (a) => a.status === 200 && a.ms < 1000)).toEqual([]);
    expect(failures(/^uncached/, (a) => a.status === 503 && a.ms < 1000 && /^5 application\/problem\+json/.test(problemOf(a)))).toEqual([]);
    expect(failures(/^MCP/, (a) => a.status === 503 && a.ms < 2000 && /database is unavailable/i.test(a.detail) && /retry/i.test(a.detail))).toEqual([]);
    expect(failures(/^(dashboard|auth)/, (a) => a.status === 503 && a.ms < 2000 && /text\/html/.test(a.detail))).toEqual([]);
    expect(failures(/^\/ \(/, (a) => a.status === 200)).toEqual([]);
    expect(failures(/^\/ready/, (a) => a.status === 503 && a.ms < 2500)).toEqual([]);
    // The metrics count it: every service's readiness failures.
    for (const [name, text] of metrics) expect([name, /readiness_check_failures_total\{[^}]*check="database"[^}]*\} [1-9]/.test(text)]).toEqual([name, true]);

    // --- Back: everything within 5 s; the release within 1 s on every instance; nothing lost.
    expect(recovered.filter((a) => a.status !== 200)).toEqual([]);
    expect(recoverMs).toBeLessThan(5000);
    for (const ms of seenMs) expect(ms).toBeLessThan(1000);
    expect(lost).toEqual([]);
    expect(acknowledgedTags.length).toBeGreaterThan(1);
    expect(tagEvents()).toBeGreaterThanOrEqual(acknowledgedTags.length);
    // The job queue resumed: the release after recovery was announced.
    const announced = () => received.some((r) => r.type === 'release.published' && JSON.stringify(r.body).includes(next.variantId as string));
    while (!announced() && Date.now() < deliveredBy) await sleep(200);
    expect(announced()).toBe(true);
    expect(mcp && worker).toBeTruthy();
  }, 150_000);
});
