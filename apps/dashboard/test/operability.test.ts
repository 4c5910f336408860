import { createOidcStorage, createRolloutFigures, createUsageReader } from '@cp/db';
import { createTestDatabase, type TestDatabase } from '@cp/db/testing';
import { defaultDomainConfig, type DomainDeps } from '@cp/domain';
import { createObjectStore, startEmbeddedS3, type EmbeddedS3 } from '@cp/storage';
import { makeConfig } from '../src/config.js';
import { silentLogger } from '@cp/http-runtime';
import { serveDashboard } from '../src/serve.js';

/* GET /ready (database and object store) and GET /metrics, through serveDashboard (docs/operations.md). */

let db: TestDatabase;
let s3: EmbeddedS3;
let domain: DomainDeps;
beforeAll(async () => {
  [db, s3] = await Promise.all([createTestDatabase(), startEmbeddedS3()]);
  const objects = createObjectStore(s3.config);
  await objects.ensureBucket();
  domain = { repos: db.repos, objects, ids: { newId: () => crypto.randomUUID() }, clock: { now: () => new Date() }, config: defaultDomainConfig };
});
afterAll(async () => {
  await s3?.close();
  await db?.close();
});

const start = (deps: DomainDeps) =>
  serveDashboard({
    config: makeConfig({ publicUrl: 'http://127.0.0.1:4300', issuer: 'http://127.0.0.1:1' }),
    domain: deps,
    grants: createOidcStorage(db.prisma),
    usage: createUsageReader(db.database.sql),
    rolloutFigures: createRolloutFigures(db.database.sql),
    log: silentLogger(),
    port: 0,
    host: '127.0.0.1',
    graceSeconds: 1,
  });

test('/ready: 200 with the database and the object store; /metrics counts requests by route pattern', async () => {
  const service = await start(domain);
  const base = `http://127.0.0.1:${service.port}`;
  try {
    const ready = await fetch(`${base}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({
      status: 'ready',
      checks: { database: { ok: true, ms: expect.any(Number) }, objectStore: { ok: true, ms: expect.any(Number) } },
    });
    await fetch(`${base}/health`);
    await fetch(`${base}/components/0f8fad5b-d9cb-469f-a165-70867728950e`, { redirect: 'manual' });
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toContain('http_requests_total{route="/health",method="GET",status="200",service="dashboard"} 1');
    expect(text).toContain('http_requests_total{route="/ready",method="GET",status="200",service="dashboard"} 1');
    expect(text).not.toContain('0f8fad5b');
  } finally {
    await service.close();
  }
});

test('/ready: 503 naming the object store when it fails', async () => {
  const service = await start({ ...domain, objects: { ...domain.objects, stat: () => Promise.reject(new Error('S3 unreachable')) } });
  try {
    const res = await fetch(`http://127.0.0.1:${service.port}/ready`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'not_ready', checks: { database: { ok: true }, objectStore: { ok: false, error: 'S3 unreachable' } } });
  } finally {
    await service.close();
  }
});
