import type { DomainDeps } from '@cp/domain';
import { memoryDomain, startAuthServer, type AuthHarness } from './support/harness.js';

/* GET /ready and GET /metrics (docs/operations.md). */

let auth: AuthHarness;
beforeAll(async () => {
  auth = await startAuthServer();
});
afterAll(() => auth.close());

const sample = (text: string, series: string): number => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
};

test('/ready: 200 when the database answers', async () => {
  const res = await fetch(`${auth.issuer}/ready`);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ status: 'ready', checks: { database: { ok: true, ms: expect.any(Number) } } });
});

test('/ready: 503 naming the database when it fails', async () => {
  const memory = memoryDomain();
  const domain: Pick<DomainDeps, 'repos' | 'ids' | 'clock'> = {
    ...memory,
    repos: { ...memory.repos, users: { ...memory.repos.users, findById: () => Promise.reject(new Error('Can\'t reach database server')) } },
  };
  const broken = await startAuthServer({ domain });
  try {
    const res = await fetch(`${broken.issuer}/ready`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'not_ready', checks: { database: { ok: false, error: "Can't reach database server" } } });
  } finally {
    await broken.close();
  }
});

test('/metrics: requests labelled by route pattern (pages and oidc-provider endpoints), never raw paths', async () => {
  await fetch(`${auth.issuer}/.well-known/openid-configuration`);
  await fetch(`${auth.issuer}/jwks`);
  await fetch(`${auth.issuer}/interaction/some-unknown-uid-123`);
  await fetch(`${auth.issuer}/no/such/page/raw-path-marker`);
  const text = await (await fetch(`${auth.issuer}/metrics`)).text();
  const series = (route: string, status: number) => `http_requests_total{route="${route}",method="GET",status="${status}",service="auth-server"}`;
  expect(sample(text, series('/.well-known/openid-configuration', 200))).toBe(1);
  expect(sample(text, series('/jwks', 200))).toBe(1);
  expect(text).toMatch(/http_requests_total\{route="\/interaction\/:uid",method="GET",status="\d+",service="auth-server"\} 1/);
  expect(text).toContain('route="(unmatched)"');
  expect(text).toContain('http_request_duration_seconds_bucket');
  expect(text).not.toContain('some-unknown-uid-123');
  expect(text).not.toContain('raw-path-marker');
});
