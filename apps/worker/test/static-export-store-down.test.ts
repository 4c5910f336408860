import { createVariantLoaders } from '@cp/consume';
import { createDomainDeps } from '@cp/db';
import { createTestDatabase, type TestDatabase } from '@cp/db/testing';
import { confirmUpload, publishVariant, registerUser, setStaticExport, startUpload, type DomainDeps } from '@cp/domain';
import { silentLogger } from '@cp/http-runtime';
import { startFaultProxy, type FaultProxy } from '@cp/http-runtime/testing';
import { createObjectStore, startEmbeddedS3, type EmbeddedS3, type S3ObjectStore } from '@cp/storage';
import { readFrameDocument, staticExportJob, type WorkerApp } from '../src/index.js';
import { startCountingWorker } from './support/counting-worker.js';

/*
 * The static export while the object store fails: the worker reaches the embedded S3
 * server (variants bucket and export bucket, over HTTP) through a TCP fault proxy that
 * refuses, then hangs, then forwards again. pg-boss retries the job (a 1 s delay here,
 * the production policy's 30 s doubling being too slow for a test); the release that
 * queued it succeeded at once.
 */
const EXPORT_BUCKET = 'components-export';
const PREFIX = 'cdn/';
let db: TestDatabase;
let s3: EmbeddedS3;
let proxy: FaultProxy;
let domain: DomainDeps;
let exportStore: S3ObjectStore;
let worker: WorkerApp;
const attempts: number[] = [];

beforeAll(async () => {
  [db, s3] = await Promise.all([createTestDatabase(), startEmbeddedS3()]);
  domain = createDomainDeps(db.database, createObjectStore(s3.config));
  proxy = await startFaultProxy({ host: '127.0.0.1', port: Number(new URL(s3.endpoint).port) });
  const throughProxy = { ...s3.config, endpoint: `http://127.0.0.1:${proxy.port}` };
  exportStore = createObjectStore({ ...s3.config, bucket: EXPORT_BUCKET });
  await exportStore.ensureBucket();
  const job = staticExportJob(
    {
      repos: db.repos,
      loaders: createVariantLoaders(createObjectStore(throughProxy), 1_000_000),
      store: createObjectStore({ ...throughProxy, bucket: EXPORT_BUCKET }),
      clock: { now: () => new Date() },
      prefix: PREFIX,
      frameDocument: readFrameDocument(),
      log: silentLogger(),
    },
    { retryLimit: 10, retryDelay: 1, retryBackoff: false, expireInSeconds: 60 },
  );
  worker = await startCountingWorker(db, job, attempts);
});

afterAll(async () => {
  // Gracefully: an attempt still running (one the hang held) records its outcome before the pool closes.
  await worker?.stop({ graceful: true, timeoutMs: 10_000 });
  await proxy?.close();
  await db?.close();
  await s3?.close();
});

const until = async (what: string, done: () => Promise<boolean>, timeoutMs = 20_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
};

test('refused, then hung: the export fails, says the object store was unavailable, is retried, and completes once the store is back', async () => {
  const user = await registerUser({ email: `owner-${Math.random().toString(36).slice(2)}@example.com` }, domain);
  const actor = { userId: user.id };
  const organizationId = user.defaultOrganizationId;
  const started = await startUpload({ actor, name: 'Price' }, domain);
  await fetch(started.uploadUrl, { method: 'PUT', headers: { 'content-type': 'text/html' }, body: '<!doctype html><p>Price</p>' });
  const { componentId } = await confirmUpload({ actor, uploadId: started.session.id }, domain);

  await proxy.refuse();
  await setStaticExport({ actor, organizationId, enabled: true }, domain);
  const outcome = await publishVariant({ actor, componentId, environment: 'staging' }, domain);
  expect(outcome.outcome).toBe('released');
  const lastError = async () => (await db.repos.staticExports.find(organizationId)).lastError;
  await until('the recorded failure', async () => (await lastError()) !== null);
  // The dashboard shows it to the organization: the outage, not the store's address.
  expect(await lastError()).toBe('The object store was unavailable.');

  // Connections held by the hang are dropped first: resuming them, once their client gave up on
  // them, leaves this test process spinning after the tests (the fault proxy's restore; see the report).
  proxy.reset();
  await proxy.restore();
  proxy.hang();
  const failedSoFar = attempts.length;
  await until('an attempt failed on the hung store', async () => attempts.length > failedSoFar + 1);
  expect(await lastError()).toBe('The object store was unavailable.');

  // Connections held by the hang are dropped first: resuming them, once their client gave up on
  // them, leaves this test process spinning after the tests (the fault proxy's restore; see the report).
  proxy.reset();
  await proxy.restore();
  const manifest = `${PREFIX}${organizationId}/manifest.json`;
  await until('the retried export', async () => (await exportStore.readIfPresent(manifest)) !== null);
  await until('the cleared error', async () => (await lastError()) === null);
  expect(await exportStore.readIfPresent(`${PREFIX}${organizationId}/components/${componentId}/staging.json`)).not.toBeNull();
  // Failed on the refused store, on the hung one, then succeeded on a retry (retryCount counts from 0).
  expect(attempts.length).toBeGreaterThanOrEqual(3);
  expect(Math.max(...attempts)).toBeGreaterThanOrEqual(1);
});
