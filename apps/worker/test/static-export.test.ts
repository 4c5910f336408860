import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createVariantLoaders, type StaticExportDeps } from '@cp/consume';
import { createDomainDeps, createUsageWriter } from '@cp/db';
import { createTestDatabase, type TestDatabase } from '@cp/db/testing';
import {
  createApp as createDelivery,
  makeConfig,
  readHostFrameFile,
  readHostSdkFile,
  type ChangeFeed,
  type DeliveryApp,
} from '@cp/delivery-api';
import {
  approveReleaseRequest,
  confirmUpload,
  publishVariant,
  registerUser,
  setStaticExport,
  startRollout,
  startUpload,
  stopRollout,
  type DomainDeps,
  type ExportStore,
} from '@cp/domain';
import { silentLogger } from '@cp/http-runtime';
import {
  createObjectStore,
  startEmbeddedS3,
  type EmbeddedS3,
  type S3ObjectStore,
} from '@cp/storage';
import { Client } from 'minio';
import { readFrameDocument, staticExportJob, type WorkerApp } from '../src/index.js';
import { startCountingWorker } from './support/counting-worker.js';

/*
 * The static export end to end, on real parts: the database (PGlite, or PostgreSQL with
 * DATABASE_URL), the embedded S3 server (variants bucket and export bucket), the worker running
 * the `static-export` queue on pg-boss, and the delivery API over HTTP for the /consume bytes.
 */
const EXPORT_BUCKET = 'components-export';
const PREFIX = 'cdn/';
let db: TestDatabase;
let s3: EmbeddedS3;
let domain: DomainDeps;
let exportStore: S3ObjectStore;
let admin: Client;
let worker: WorkerApp;
let delivery: { app: DeliveryApp; server: Server; url: string };
/** Puts that fail before reaching the bucket (a failing store), counted down by each attempt. */
let failingPuts = 0;
const attempts: number[] = [];

// The delivery cache is off (maxBytes 0), so every /consume reads the database: nothing to invalidate.
const silentFeed: ChangeFeed = {
  listening: Promise.resolve(),
  subscribe: () => () => undefined,
  close: async () => undefined,
};

beforeAll(async () => {
  db = await createTestDatabase();
  s3 = await startEmbeddedS3();
  // Longer than production's request timeout: under CI load the embedded S3 server can take seconds, and this file is
  // about what the export writes (the store-down file tests the timeout).
  const settings = { ...s3.config, requestTimeoutMs: 15_000 };
  const objects = createObjectStore(settings);
  domain = createDomainDeps(db.database, objects);
  exportStore = createObjectStore({ ...settings, bucket: EXPORT_BUCKET });
  await exportStore.ensureBucket();
  const url = new URL(s3.endpoint);
  admin = new Client({
    endPoint: url.hostname,
    port: Number(url.port),
    useSSL: false,
    accessKey: s3.config.accessKey,
    secretKey: s3.config.secretKey,
    region: 'us-east-1',
    pathStyle: true,
  });
  const store: ExportStore = {
    put: async (key, bytes, headers) => {
      if (failingPuts > 0) {
        failingPuts -= 1;
        throw new Error('injected: the export bucket is unreachable');
      }
      await exportStore.put(key, bytes, headers);
    },
    readIfPresent: (key) => exportStore.readIfPresent(key),
    list: (prefix) => exportStore.list(prefix),
    remove: (key) => exportStore.remove(key),
  };
  const deps: StaticExportDeps = {
    repos: db.repos,
    loaders: createVariantLoaders(objects, 1_000_000),
    store,
    clock: { now: () => new Date() },
    prefix: PREFIX,
    frameDocument: readFrameDocument(),
  };
  const job = staticExportJob(
    { ...deps, log: silentLogger() },
    { retryLimit: 5, retryDelay: 1, retryBackoff: false, expireInSeconds: 60 },
  );
  worker = await startCountingWorker(db, job, attempts);
  const app = createDelivery({
    config: makeConfig({ cache: { maxBytes: 0 } }),
    repos: db.repos,
    objects,
    changes: silentFeed,
    log: silentLogger(),
    hostSdk: readHostSdkFile(),
    hostFrame: readHostFrameFile(),
    usage: createUsageWriter(db.database.sql),
  });
  const server = createServer(app.listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  delivery = { app, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
});

afterAll(async () => {
  // Graceful: a job still running would otherwise record its outcome in a database already closed.
  await worker?.stop({ graceful: true, timeoutMs: 10_000 });
  delivery?.app.close();
  delivery?.server.closeAllConnections();
  await new Promise((resolve) => delivery?.server.close(resolve));
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

async function upload(
  actor: { userId: string },
  html: string,
  target: { name: string } | { componentId: string },
) {
  const started = await startUpload({ actor, ...target }, domain);
  const put = await fetch(started.uploadUrl, {
    method: 'PUT',
    headers: { 'content-type': 'text/html' },
    body: html,
  });
  expect(put.status).toBe(200);
  return confirmUpload({ actor, uploadId: started.session.id }, domain);
}

/** An owner with a component of two variants (v1, v2). */
async function anOrganization() {
  const user = await registerUser(
    { email: `owner-${Math.random().toString(36).slice(2)}@example.com` },
    domain,
  );
  const actor = { userId: user.id };
  const v1 = await upload(actor, '<!doctype html><p>Price v1</p>', { name: 'Price' });
  const v2 = await upload(
    actor,
    '<!doctype html><p>Price v2</p><script>window.cpSend("x")</script>',
    { componentId: v1.componentId },
  );
  return {
    actor,
    organizationId: user.defaultOrganizationId,
    componentId: v1.componentId,
    variants: [v1.variantId, v2.variantId] as const,
  };
}

const consumeBody = async (id: string, env: string, arm = '') => {
  const response = await fetch(`${delivery.url}/consume?id=${id}&env=${env}${arm}`, {
    headers: { 'accept-encoding': 'identity' },
  });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
};
const exported = async (key: string) => {
  const bytes = await exportStore.readIfPresent(key);
  return bytes && Buffer.from(bytes);
};
const folderOf = (organizationId: string) => `${PREFIX}${organizationId}/`;
const jobsOf = async (organizationId: string) =>
  Number(
    (
      await db.prisma.$queryRawUnsafe<{ n: bigint }[]>(
        `SELECT count(*) AS n FROM jobs.job WHERE name = 'static-export' AND data->>'organizationId' = $1`,
        organizationId,
      )
    )[0]!.n,
  );

test('an organization that did not opt in gets no job and nothing written', async () => {
  const { actor, componentId, organizationId } = await anOrganization();
  await publishVariant({ actor, componentId, environment: 'staging' }, domain);
  expect(await jobsOf(organizationId)).toBe(0);
  expect(await exportStore.list(folderOf(organizationId))).toEqual([]);
});

test('turning it on exports everything: each object is the /consume body byte for byte, with its headers, and the manifest lists them', async () => {
  const { actor, componentId, organizationId, variants } = await anOrganization();
  await publishVariant({ actor, componentId, environment: 'staging' }, domain);
  await publishVariant({ actor, componentId, environment: 'prod', variantId: variants[0] }, domain);

  await setStaticExport({ actor, organizationId, enabled: true }, domain);
  const folder = folderOf(organizationId);
  await until('the manifest', async () => (await exported(`${folder}manifest.json`)) !== null);

  for (const env of ['staging', 'prod']) {
    const key = `${folder}components/${componentId}/${env}.json`;
    expect((await exported(key))!.equals(await consumeBody(componentId, env))).toBe(true);
    const stat = await admin.statObject(EXPORT_BUCKET, key);
    expect(stat.metaData['content-type']).toBe('application/json; charset=utf-8');
    expect(stat.metaData['cache-control']).toBe(
      'public, max-age=30, stale-while-revalidate=60, stale-if-error=86400',
    );
  }
  const manifest = JSON.parse((await exported(`${folder}manifest.json`))!.toString());
  expect(manifest).toMatchObject({
    organizationId,
    components: [
      {
        id: componentId,
        name: 'Price',
        environments: {
          prod: {
            variant: { id: variants[0], name: 'v1' },
            path: `components/${componentId}/prod.json`,
          },
          staging: {
            variant: { id: variants[1], name: 'v2' },
            path: `components/${componentId}/staging.json`,
          },
        },
      },
    ],
  });
  expect(
    (await admin.statObject(EXPORT_BUCKET, `${folder}manifest.json`)).metaData['cache-control'],
  ).toBe('public, max-age=30, stale-while-revalidate=60, stale-if-error=86400');
  // The frame document iframe isolation loads, byte for byte as the delivery API serves it at the same path.
  const frame = await fetch(`${delivery.url}/${manifest.frameDocument}`);
  expect(frame.status).toBe(200);
  expect((await exported(`${folder}${manifest.frameDocument}`))!.equals(Buffer.from(await frame.arrayBuffer()))).toBe(true);
  const frameStat = await admin.statObject(EXPORT_BUCKET, `${folder}${manifest.frameDocument}`);
  expect(frameStat.metaData['content-type']).toBe('text/html; charset=utf-8');
  expect(frameStat.metaData['cache-control']).toBe('public, max-age=31536000, immutable');
  expect(await db.repos.staticExports.find(organizationId)).toMatchObject({
    enabled: true,
    lastError: null,
  });
  expect((await db.repos.staticExports.find(organizationId)).exportedAt).not.toBeNull();
});

test('a rollback rewrites the object; an approved release request is exported too', async () => {
  const { actor, componentId, organizationId, variants } = await anOrganization();
  await setStaticExport({ actor, organizationId, enabled: true }, domain);
  await publishVariant({ actor, componentId, environment: 'staging' }, domain);
  const key = `${folderOf(organizationId)}components/${componentId}/staging.json`;
  await until('the release', async () => (await exported(key))?.includes(variants[1]) ?? false);

  await publishVariant(
    { actor, componentId, environment: 'staging', variantId: variants[0] },
    domain,
  );
  await until('the rollback', async () => (await exported(key))?.includes(variants[0]) ?? false);
  expect((await exported(key))!.equals(await consumeBody(componentId, 'staging'))).toBe(true);

  // A member's publish to protected prod becomes a request; the owner's approval releases it.
  const member = await registerUser(
    { email: `member-${Math.random().toString(36).slice(2)}@example.com` },
    domain,
  );
  await db.prisma.membership.create({
    data: { userId: member.id, organizationId, role: 'member' },
  });
  const requested = await publishVariant(
    { actor: { userId: member.id }, componentId, environment: 'prod' },
    domain,
  );
  expect(requested.outcome).toBe('requested');
  if (requested.outcome !== 'requested') return;
  await approveReleaseRequest({ actor, requestId: requested.request.id }, domain);
  const prodKey = `${folderOf(organizationId)}components/${componentId}/prod.json`;
  await until('the approved release', async () => (await exported(prodKey)) !== null);
  expect((await exported(prodKey))!.equals(await consumeBody(componentId, 'prod'))).toBe(true);
});

/** The part of the manifest the rollout case reads. */
interface ListedReleases {
  readonly components?: {
    readonly environments: Record<
      string,
      { readonly assignment?: { revision: number; arms: unknown } }
    >;
  }[];
}

test('a rollout: its arm beside the fallback, each the /consume body byte for byte, listed; its stop removes the arm', async () => {
  const { actor, componentId, organizationId, variants } = await anOrganization();
  await publishVariant({ actor, componentId, environment: 'prod', variantId: variants[0] }, domain);
  await setStaticExport({ actor, organizationId, enabled: true }, domain);
  const folder = folderOf(organizationId);
  // The embedded S3 server can serve an object it is still writing: such a read is "not yet".
  const manifest = async (): Promise<ListedReleases> => {
    try {
      return JSON.parse(
        (await exported(`${folder}manifest.json`))?.toString() ?? '{}',
      ) as ListedReleases;
    } catch {
      return {};
    }
  };
  const prod = async () => (await manifest()).components?.[0]?.environments.prod;
  await until('the release', async () => (await prod()) !== undefined);

  const target = { actor, componentId, environment: 'prod' };
  await startRollout({ ...target, candidateVariantId: variants[1] }, domain);
  const live = (await db.repos.assignments.findLive(componentId, 'prod'))!;
  await until('the arm', async () => (await prod())?.assignment?.revision === live.revision);
  const fallbackKey = `${folder}components/${componentId}/prod.json`;
  const armPath = `components/${componentId}/prod/arms/v2.json`;
  expect((await prod())!.assignment!.arms).toEqual({
    v2: { variant: { id: variants[1], name: 'v2' }, path: armPath },
  });
  expect((await exported(fallbackKey))!.equals(await consumeBody(componentId, 'prod'))).toBe(true);
  expect(
    (await exported(`${folder}${armPath}`))!.equals(
      await consumeBody(componentId, 'prod', `&arm=v2&rev=${live.revision}`),
    ),
  ).toBe(true);

  await stopRollout(target, domain);
  await until('the stop', async () => (await prod())?.assignment === undefined);
  expect(await exported(`${folder}${armPath}`)).toBeNull();
  expect((await exported(fallbackKey))!.equals(await consumeBody(componentId, 'prod'))).toBe(true);
});

test('a failing write is retried until it succeeds, and the release itself succeeded at once', async () => {
  const { actor, componentId, organizationId, variants } = await anOrganization();
  await setStaticExport({ actor, organizationId, enabled: true }, domain);
  const folder = folderOf(organizationId);
  await until('the first export', async () => (await exported(`${folder}manifest.json`)) !== null);
  attempts.length = 0;
  failingPuts = 2;

  const outcome = await publishVariant({ actor, componentId, environment: 'staging' }, domain);
  expect(outcome.outcome).toBe('released');
  await until(
    'the recorded failure',
    async () => (await db.repos.staticExports.find(organizationId)).lastError !== null,
  );
  expect((await db.repos.staticExports.find(organizationId)).lastError).toBe(
    'injected: the export bucket is unreachable',
  );

  const key = `${folder}components/${componentId}/staging.json`;
  await until(
    'the retried export',
    async () => (await exported(key))?.includes(variants[1]) ?? false,
  );
  await until(
    'the cleared error',
    async () => (await db.repos.staticExports.find(organizationId)).lastError === null,
  );
  expect(attempts.slice(0, 3)).toEqual([0, 1, 2]);
  expect((await exported(key))!.equals(await consumeBody(componentId, 'staging'))).toBe(true);
});

test("turning it off removes the organization's objects and no other organization's", async () => {
  const one = await anOrganization();
  const other = await anOrganization();
  for (const org of [one, other]) {
    await setStaticExport(
      { actor: org.actor, organizationId: org.organizationId, enabled: true },
      domain,
    );
    await publishVariant(
      { actor: org.actor, componentId: org.componentId, environment: 'staging' },
      domain,
    );
  }
  for (const org of [one, other]) {
    await until(
      'both exports',
      async () =>
        (await exported(
          `${folderOf(org.organizationId)}components/${org.componentId}/staging.json`,
        )) !== null,
    );
  }

  await setStaticExport(
    { actor: one.actor, organizationId: one.organizationId, enabled: false },
    domain,
  );
  await until(
    'the removal',
    async () => (await exportStore.list(folderOf(one.organizationId))).length === 0,
  );
  expect((await exportStore.list(folderOf(other.organizationId))).sort()).toEqual(
    [
      `${folderOf(other.organizationId)}components/${other.componentId}/staging.json`,
      `${folderOf(other.organizationId)}manifest.json`,
      `${folderOf(other.organizationId)}${readFrameDocument().path}`,
    ].sort(),
  );
});
