import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ObjectStore, Repositories, UsageWriter } from '@cp/domain';
import { createDatabase, createPglite, createRepositories, createUsageWriter, findRepositoryRoot, migrate } from '@cp/db';
import { createObjectStore, startEmbeddedS3 } from '@cp/storage';
import type { ChangeFeed } from './changes/change-feed.js';
import { createPGliteChangeFeed } from './changes/pglite-change-feed.js';
import { createPostgresChangeFeed } from './changes/postgres-change-feed.js';
import type { Env } from './env.js';
import type { Logger } from '@cp/http-runtime';

export interface Resources {
  readonly repos: Repositories;
  readonly objects: ObjectStore;
  readonly changes: ChangeFeed;
  /** Usage events and served counts, on the same pool. */
  readonly usage: UsageWriter;
  close(): Promise<void>;
}

/**
 * The database, its change feed and the object store, from the environment.
 * PostgreSQL (production): the schema is migrated by `pnpm db:migrate` at deploy,
 * never by this service (it reads components and writes only usage analytics). Without DATABASE_URL (a local run alone):
 * PGlite in PGLITE_DATA_DIR, migrated here, and the embedded S3 server on
 * `.data/s3`, as `pnpm start` lays them out.
 */
export async function openResources(env: Env, log: Logger): Promise<Resources> {
  const closers: Array<() => Promise<void>> = [];
  const close = async () => {
    for (const closer of closers.reverse()) await closer().catch(() => undefined);
  };
  try {
    let repos: Repositories;
    let changes: ChangeFeed;
    let usage: UsageWriter;
    if (env.databaseUrl !== null) {
      const database = await createDatabase({ databaseUrl: env.databaseUrl });
      closers.push(() => database.close());
      repos = createRepositories(database);
      usage = createUsageWriter(database.sql);
      changes = createPostgresChangeFeed(env.databaseUrl, log);
    } else {
      await mkdir(env.pgliteDataDir, { recursive: true });
      const pglite = await createPglite({ dataDir: env.pgliteDataDir });
      closers.push(() => pglite.close());
      const database = await createDatabase({ pglite });
      closers.push(() => database.close());
      await migrate({ adapterFactory: database.adapterFactory });
      repos = createRepositories(database);
      usage = createUsageWriter(database.sql);
      changes = await createPGliteChangeFeed(pglite);
    }
    closers.push(() => changes.close());

    let objects: ObjectStore;
    const { s3 } = env;
    if (s3.endpoint !== null && s3.accessKey !== null && s3.secretKey !== null) {
      objects = createObjectStore({
        endpoint: s3.endpoint,
        publicEndpoint: s3.publicEndpoint ?? undefined,
        accessKey: s3.accessKey,
        secretKey: s3.secretKey,
        bucket: s3.bucket,
        region: s3.region,
        // A hung store frees its connection when the load gives up, not later.
        requestTimeoutMs: env.app.loadTimeoutMs,
      });
    } else {
      const root = findRepositoryRoot(process.cwd()) ?? process.cwd();
      const embedded = await startEmbeddedS3({ directory: join(root, '.data', 's3'), bucket: s3.bucket });
      closers.push(() => embedded.close());
      objects = createObjectStore(embedded.config);
    }
    return { repos, objects, changes, usage, close };
  } catch (error) {
    await close();
    throw error;
  }
}
