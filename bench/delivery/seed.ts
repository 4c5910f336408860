/**
 * Child process: puts the two benchmark components into a deployment's storage
 * the way the MCP tools do (start upload, presigned PUT, confirm, publish to
 * prod), then exits (or, with `--serve-objects`, keeps the S3 server up for a
 * delivery process that reads from it). argv[2] is a JSON `SeedTarget`. Prints
 * one JSON line: the component ids (and the S3 settings when serving objects).
 * With `--rollout`, a third component whose v2 is in a canary rollout at 50% of prod
 * (rollout.ts).
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createDatabase, createPglite, createRepositories, migrate, type Database } from '../../packages/db/src/index.js';
import { confirmUpload, defaultDomainConfig, publishVariant, registerUser, startRollout, startUpload, type DomainDeps } from '../../packages/domain/src/index.js';
import { createObjectStore, startEmbeddedS3 } from '../../packages/storage/src/index.js';
import { largePage, smallPage } from './pages.js';

/** The stack's folder layout (`<root>/.data/pglite`, `<root>/.data/s3`), or a PostgreSQL database with objects in `s3Dir`. */
export type SeedTarget = { kind: 'stack'; root: string } | { kind: 'postgres'; databaseUrl: string; s3Dir: string };

const target = JSON.parse(process.argv[2] ?? '{}') as SeedTarget;
const serveObjects = process.argv.includes('--serve-objects');
const withRollout = process.argv.includes('--rollout');

let pglite: { close(): Promise<void> } | null = null;
let database: Database;
if (target.kind === 'stack') {
  const dataDir = join(target.root, '.data', 'pglite');
  await mkdir(dataDir, { recursive: true });
  const embedded = await createPglite({ dataDir });
  pglite = embedded;
  database = await createDatabase({ pglite: embedded });
} else {
  database = await createDatabase({ databaseUrl: target.databaseUrl });
}
await migrate({ adapterFactory: database.adapterFactory });
const s3 = await startEmbeddedS3({ directory: target.kind === 'stack' ? join(target.root, '.data', 's3') : target.s3Dir });
const deps: DomainDeps = {
  repos: createRepositories(database),
  objects: createObjectStore(s3.config),
  clock: { now: () => new Date() },
  ids: { newId: randomUUID },
  config: defaultDomainConfig,
};
const user = await registerUser({ email: `bench-${Date.now()}@example.com` }, deps);
const actor = { userId: user.id };

async function uploadPage(html: string, target: { name: string } | { componentId: string }) {
  const started = await startUpload({ actor, ...target }, deps);
  const put = await fetch(started.uploadUrl, { method: 'PUT', headers: { 'content-type': 'text/html' }, body: html });
  if (!put.ok) throw new Error(`seed upload failed: ${put.status}`);
  return confirmUpload({ actor, uploadId: started.session.id }, deps);
}

async function publishPage(name: string, html: string): Promise<string> {
  const { componentId } = await uploadPage(html, { name });
  await publishVariant({ actor, componentId, environment: 'prod' }, deps);
  return componentId;
}

/** A component of the small page whose v2 (the same size) is rolled out to half of prod, held there. */
async function rolloutPage(): Promise<string> {
  const componentId = await publishPage('Rolled-out tag', smallPage());
  const candidate = await uploadPage(smallPage().replace('</body>', '<p>v2</p></body>'), { componentId });
  await startRollout({ actor, componentId, environment: 'prod', candidateVariantId: candidate.variantId, stages: [{ weight: 50_000, holdMinutes: 1440 }] }, deps);
  return componentId;
}

const ids = {
  small: await publishPage('Price tag', smallPage()),
  large: await publishPage('Catalogue', largePage()),
  ...(withRollout ? { rollout: await rolloutPage() } : {}),
};
await database.close();
await pglite?.close();
if (serveObjects) {
  const { endpoint, config } = s3;
  process.stdout.write(`${JSON.stringify({ ids, s3: { S3_ENDPOINT: endpoint, S3_ACCESS_KEY: config.accessKey, S3_SECRET_KEY: config.secretKey, S3_BUCKET: config.bucket } })}\n`);
  process.once('SIGTERM', () => void s3.close().finally(() => process.exit(0)));
} else {
  await s3.close();
  process.stdout.write(`${JSON.stringify({ ids })}\n`);
}
