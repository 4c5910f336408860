import { createRolloutFigures, createUsageReader } from '@cp/db';
import { createTestDatabase, type TestDatabase } from '@cp/db/testing';
import type { User } from '@cp/domain';
import { startFaultProxy, type FaultProxy } from '@cp/http-runtime/testing';
import { createObjectStore, startEmbeddedS3, type EmbeddedS3 } from '@cp/storage';
import { aComponentWithVariants } from '../support/builders.js';
import { anAccount, startDashboardStack, type DashboardStack } from '../support/dashboard-server.js';
import { headline, signedInBrowser } from '../support/sign-in.js';

/*
 * The dashboard while the object store fails: it reaches the embedded S3 server (over
 * HTTP) through a TCP fault proxy that refuses, then forwards again. The database stays
 * up, so pages that read only the database keep working; a variant preview (its HTML is
 * in the store) answers a 503 page saying to retry, never a 500.
 */

let db: TestDatabase;
let s3: EmbeddedS3;
let proxy: FaultProxy;
let stack: DashboardStack;
let owner: User;

beforeAll(async () => {
  [db, s3] = await Promise.all([createTestDatabase(), startEmbeddedS3()]);
  proxy = await startFaultProxy({ host: '127.0.0.1', port: Number(new URL(s3.endpoint).port) });
  const objects = createObjectStore({ ...s3.config, endpoint: `http://127.0.0.1:${proxy.port}`, publicEndpoint: s3.endpoint });
  await objects.ensureBucket();
  stack = await startDashboardStack({ shared: { repos: db.repos, objects, usage: createUsageReader(db.database.sql), rolloutFigures: createRolloutFigures(db.database.sql) } });
  owner = await anAccount(stack.auth);
}, 60_000);

afterAll(async () => {
  await stack?.close();
  await proxy?.close();
  await db?.close();
  await s3?.close();
});

test('a variant preview answers a 503 page while the store refuses, the component page stays 200, and the preview is back once the store is', async () => {
  const { component, variants } = await aComponentWithVariants(stack.domain, owner, 1);
  const pagePath = `/component/${component.id}`;
  const previewPath = `${pagePath}/variants/${variants[0]!.id}/preview`;
  const { get } = await signedInBrowser(stack.url, pagePath, owner);
  expect((await get(previewPath)).status).toBe(200);

  await proxy.refuse();
  const down = await get(previewPath);
  expect(down.status).toBe(503);
  expect(down.headers.get('retry-after')).toBe('5');
  expect(headline(down)).toEqual({
    title: 'Temporarily unavailable',
    message: 'The object store is unavailable right now, so nothing was read or changed. Retry in 5 seconds.',
  });
  expect(down.html).not.toContain(String(proxy.port));
  expect((await get(pagePath)).status).toBe(200);

  await proxy.restore();
  expect((await get(previewPath)).status).toBe(200);
});
