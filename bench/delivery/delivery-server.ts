/**
 * Child process: the real delivery app (createApp, production wiring) over a
 * migrated database (PostgreSQL when DATABASE_URL is set, its own database
 * created and dropped; else in-memory PGlite) and the embedded S3 server, with
 * two components uploaded and published to prod the way the MCP tools do it.
 * Two instances: one with the default cache, one with caching off (every request
 * takes the miss path: database, object store, HTML parse, serialization,
 * compression). Prints one JSON line when ready.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDatabase, createRepositories, migrate } from '../../packages/db/src/index.js';
import { createTestDatabase } from '../../packages/db/src/testing/index.js';
import { confirmUpload, defaultDomainConfig, publishVariant, registerUser, startUpload, type DomainDeps, type Repositories } from '../../packages/domain/src/index.js';
import { createObjectStore, startEmbeddedS3 } from '../../packages/storage/src/index.js';
import { createApp } from '../../apps/delivery-api/src/app.js';
import { createPGliteChangeFeed } from '../../apps/delivery-api/src/changes/pglite-change-feed.js';
import { createPostgresChangeFeed } from '../../apps/delivery-api/src/changes/postgres-change-feed.js';
import type { ChangeFeed } from '../../apps/delivery-api/src/changes/change-feed.js';
import { makeConfig } from '../../apps/delivery-api/src/config.js';
import { createLogger } from '../../apps/delivery-api/src/log.js';
import { largePage, smallPage } from './pages.js';
import { importPGlite } from './resolve.js';

const log = createLogger({ level: 'warn', destination: process.stderr as never });
const s3 = await startEmbeddedS3();
const objects = createObjectStore(s3.config);

let repos: Repositories;
let feed: () => Promise<ChangeFeed>;
let closeDatabase: () => Promise<void>;
let database: string;
if (process.env.DATABASE_URL) {
  const db = await createTestDatabase({ kind: 'postgres', databaseUrl: process.env.DATABASE_URL });
  repos = db.repos;
  feed = async () => createPostgresChangeFeed(db.url!, log);
  closeDatabase = () => db.close();
  database = 'PostgreSQL 15 (127.0.0.1)';
} else {
  const { PGlite } = await importPGlite();
  const pglite = await PGlite.create();
  const db = await createDatabase({ pglite });
  await migrate({ adapterFactory: db.adapterFactory });
  repos = createRepositories(db);
  feed = () => createPGliteChangeFeed(pglite);
  closeDatabase = async () => {
    await db.close();
    await pglite.close();
  };
  database = 'PGlite (in memory)';
}

const deps: DomainDeps = { repos, objects, clock: { now: () => new Date() }, ids: { newId: randomUUID }, config: defaultDomainConfig };
const user = await registerUser({ email: `bench-${Date.now()}@example.com` }, deps);
const actor = { userId: user.id };

async function publishPage(name: string, html: string): Promise<string> {
  const started = await startUpload({ actor, name }, deps);
  const put = await fetch(started.uploadUrl, { method: 'PUT', headers: { 'content-type': 'text/html' }, body: html });
  if (!put.ok) throw new Error(`seed upload failed: ${put.status}`);
  const { componentId } = await confirmUpload({ actor, uploadId: started.session.id }, deps);
  await publishVariant({ actor, componentId, environment: 'prod' }, deps);
  return componentId;
}

const small = await publishPage('Price tag', smallPage());
const large = await publishPage('Catalogue', largePage());

async function listen(maxBytes: number) {
  const changes = await feed();
  const app = createApp({ config: makeConfig({ cache: { maxBytes } }), repos, objects, changes, log });
  const server = createServer({ keepAliveTimeout: 65_000 }, app.listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server, changes };
}

const cached = await listen(makeConfig().cache.maxBytes);
const uncached = await listen(0);

process.stdout.write(
  `${JSON.stringify({
    cachedUrl: cached.url,
    uncachedUrl: uncached.url,
    database,
    paths: { small: `/consume?id=${small}&env=prod`, large: `/consume?id=${large}&env=prod` },
  })}\n`,
);

// The parent measures CPU per request from these readings.
process.on('message', () => process.send?.(process.cpuUsage()));
process.once('SIGTERM', () => {
  for (const instance of [cached, uncached]) instance.server.closeAllConnections();
  void Promise.all([cached.changes.close(), uncached.changes.close()])
    .then(() => closeDatabase())
    .then(() => s3.close())
    .finally(() => process.exit(0));
});
