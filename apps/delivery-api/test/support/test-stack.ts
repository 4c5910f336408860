import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createDatabase, createRepositories, createUsageWriter, type Database } from '@cp/db';
import { createTestDatabase, openMigratedPglite } from '@cp/db/testing';
import { defaultDomainConfig, type DomainDeps, type ObjectStore, type Repositories, type UsageWriter } from '@cp/domain';
import { createObjectStore, startEmbeddedS3, type EmbeddedS3 } from '@cp/storage';
import { createApp, type DeliveryApp } from '../../src/app.js';
import type { ChangeFeed } from '../../src/changes/change-feed.js';
import { createPGliteChangeFeed } from '../../src/changes/pglite-change-feed.js';
import { createPostgresChangeFeed } from '../../src/changes/postgres-change-feed.js';
import { makeConfig } from '../../src/config.js';
import { readHostFrameFile, readHostSdkFile } from '../../src/host-sdk/host-sdk-file.js';
import { type Logger, silentLogger } from '@cp/http-runtime';

/**
 * Real infrastructure for one test file: a migrated database of its own
 * (PostgreSQL when DATABASE_URL is set, else an in-memory PGlite), the embedded
 * S3 server, and domain deps for seeding data the way the MCP tools do.
 */
export interface TestStack {
  readonly kind: 'postgres' | 'pglite';
  /** PostgreSQL only: this file's database. */
  readonly databaseUrl: string | null;
  readonly repos: Repositories;
  /** Hand-written statements on the same database (the usage tables). */
  readonly sql: Database['sql'];
  readonly usage: UsageWriter;
  readonly domain: DomainDeps;
  readonly s3: EmbeddedS3;
  /** A new change feed (one per delivery instance, as in production). */
  openChangeFeed(): Promise<ChangeFeed>;
  /** Closes the database: the "database down" of the PGlite runs. */
  closeDatabase(): Promise<void>;
  close(): Promise<void>;
}

export async function openTestStack(): Promise<TestStack> {
  const s3 = await startEmbeddedS3();
  // The embedded S3 server shares the CPU with the tests (and, in CI, with the other steps): a
  // slow answer under that load is no outage here. The outage tests give their stores the
  // production timeout themselves (object-store-down.test.ts).
  const objects = createObjectStore({ ...s3.config, requestTimeoutMs: 15_000 });
  const serverUrl = process.env.DATABASE_URL || undefined;
  let repos: Repositories;
  let sql: Database['sql'];
  let databaseUrl: string | null = null;
  let openChangeFeed: () => Promise<ChangeFeed>;
  let closeDatabase: () => Promise<void>;
  if (serverUrl) {
    const database = await createTestDatabase({ kind: 'postgres', databaseUrl: serverUrl });
    repos = database.repos;
    sql = database.database.sql;
    databaseUrl = database.url ?? null;
    openChangeFeed = async () => createPostgresChangeFeed(database.url!, silentLogger());
    closeDatabase = () => database.close();
  } else {
    // Not createTestDatabase: the change feed needs the PGlite instance itself.
    const pglite = await openMigratedPglite();
    const database = await createDatabase({ pglite });
    repos = createRepositories(database);
    sql = database.sql;
    openChangeFeed = () => createPGliteChangeFeed(pglite);
    let closed: Promise<void> | undefined;
    closeDatabase = () => (closed ??= database.close().then(() => pglite.close()));
  }
  const feeds: ChangeFeed[] = [];
  const domain: DomainDeps = {
    repos,
    objects,
    clock: { now: () => new Date() },
    ids: { newId: () => randomUUID() },
    config: defaultDomainConfig,
  };
  return {
    kind: serverUrl ? 'postgres' : 'pglite',
    databaseUrl,
    repos,
    sql,
    usage: createUsageWriter(sql),
    domain,
    s3,
    async openChangeFeed() {
      const feed = await openChangeFeed();
      feeds.push(feed);
      return feed;
    },
    closeDatabase,
    async close() {
      for (const feed of feeds) await feed.close();
      await closeDatabase();
      await s3.close();
    },
  };
}

export interface Instance {
  readonly url: string;
  readonly app: DeliveryApp;
  close(): Promise<void>;
}

/** A delivery instance over real HTTP on a free port, with its own cache and change feed. */
export async function startInstance(
  stack: TestStack,
  options: {
    config?: Parameters<typeof makeConfig>[0];
    repos?: Repositories;
    /** The instance's own object store (e.g. through a fault proxy); default: the stack's. */
    objects?: ObjectStore;
    draining?: () => boolean;
    /** Default: the stack's. */
    usage?: UsageWriter;
    /** Default: silent. */
    log?: Logger;
  } = {},
): Promise<Instance> {
  const changes = await stack.openChangeFeed();
  // As in production, the first LISTEN marks everything stale; tests count reads after it.
  await changes.listening;
  const config = makeConfig({ ...options.config, publicUrl: options.config?.publicUrl ?? 'http://delivery.test' });
  const app = createApp({
    config,
    repos: options.repos ?? stack.repos,
    objects: options.objects ?? stack.domain.objects,
    changes,
    log: options.log ?? silentLogger(),
    hostSdk: readHostSdkFile(),
    hostFrame: readHostFrameFile(),
    draining: options.draining,
    usage: options.usage ?? stack.usage,
  });
  const server: Server = createServer(app.listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    async close() {
      app.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.usage.close();
      await changes.close();
    },
  };
}
