/* eslint-disable @typescript-eslint/no-explicit-any -- tool results are JSON, checked by assertions */
import type { DomainDeps } from '@cp/domain';
import { createTestDomain, type TestDomain } from './support/domain.js';
import { aUser, rpc, startHarness, toolCall, type Harness } from './support/harness.js';
import { aProject, html, runInShell } from './support/upload.js';

/* GET /ready and GET /metrics (docs/operations.md). */

let domain: TestDomain;
let h: Harness;

beforeAll(async () => {
  domain = await createTestDomain();
  h = await startHarness({ domain: domain.deps, rateLimit: { ipPoints: 3 } });
});
afterAll(async () => {
  await h.close();
  await domain.close();
});

const scrape = async (harness: Harness = h) => (await fetch(`${harness.baseUrl}/metrics`)).text();
const sample = (text: string, series: string): number => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
};
const s = (name: string, labels: string) => `${name}{${labels},service="mcp-server"}`;

test('/ready: 200 with the database and the object store checked, by IP address (no Host check)', async () => {
  const res = await fetch(`${h.baseUrl}/ready`);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({
    status: 'ready',
    checks: { database: { ok: true, ms: expect.any(Number) }, objectStore: { ok: true, ms: expect.any(Number) } },
  });
});

test('/ready: 503 naming the object store when it fails', async () => {
  const objects = { ...domain.deps.objects, stat: () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:9000')) };
  const broken: DomainDeps = { ...domain.deps, objects };
  const other = await startHarness({ domain: broken });
  try {
    const res = await fetch(`${other.baseUrl}/ready`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      status: 'not_ready',
      checks: { database: { ok: true }, objectStore: { ok: false, error: 'connect ECONNREFUSED 127.0.0.1:9000' } },
    });
  } finally {
    await other.close();
  }
});

test('/metrics: requests by route, uploads, content cache, token failures and rate-limit rejections move', async () => {
  const before = await scrape();
  expect(before).toContain('# TYPE mcp_uploads_total counter');
  expect(sample(before, s('mcp_uploads_total', 'stage="started"'))).toBe(0);

  const client = await h.connect(await h.tokenFor(await aUser(h.domain)));
  const call = async (name: string, args: Record<string, unknown>): Promise<any> => (await client.callTool({ name, arguments: args })).structuredContent;
  const started = await call('upload_component', { name: `Metrics ${Date.now()}` });
  const project = await aProject(html('Metrics'));
  await runInShell('sh', started.curlCommand as string, project.dir);
  const confirmed = await call('confirm_upload', { uploadId: started.uploadId });
  expect(confirmed.success).toBe(true);
  await call('get_component', { componentId: confirmed.componentId, includeContent: true });
  await call('get_component', { componentId: confirmed.componentId, includeContent: true });

  // Bad tokens: three 401s (the IP budget is 3), then a 429.
  const statuses: number[] = [];
  for (let i = 0; i < 4; i += 1) statuses.push((await rpc(h.mcpUrl, toolCall('whoami'), { token: 'not-a-jwt' })).status);
  expect(statuses).toEqual([401, 401, 401, 429]);

  const after = await scrape();
  expect(sample(after, s('mcp_uploads_total', 'stage="started"'))).toBe(1);
  expect(sample(after, s('mcp_uploads_total', 'stage="confirmed"'))).toBe(1);
  expect(sample(after, s('mcp_content_cache_lookups_total', 'result="hit"'))).toBeGreaterThanOrEqual(1);
  expect(sample(after, s('mcp_content_cache_lookups_total', 'result="miss"'))).toBeGreaterThanOrEqual(1);
  expect(sample(after, s('mcp_token_failures_total', 'reason="signature"'))).toBe(4);
  expect(sample(after, s('mcp_rate_limit_rejections_total', 'budget="ip"'))).toBe(1);
  expect(sample(after, s('mcp_tool_calls_total', 'tool="confirm_upload",result="ok"'))).toBe(1);
  expect(sample(after, s('http_requests_total', 'route="/mcp",method="POST",status="401"'))).toBe(3);
  expect(sample(after, s('http_requests_total', 'route="/mcp",method="POST",status="429"'))).toBe(1);
  expect(sample(after, s('http_requests_total', 'route="/mcp",method="POST",status="200"'))).toBeGreaterThanOrEqual(5);
  expect(after).not.toContain(confirmed.componentId);
  await client.close();
});
