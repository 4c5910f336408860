import { mkdir } from 'node:fs/promises';
import { createDatabase, createPglite, migrate, type Database } from '@cp/db';
import type { Env } from './env.js';

export interface Resources {
  readonly database: Database;
  close(): Promise<void>;
}

/**
 * The database from the environment. PostgreSQL: migrated at deploy (`pnpm db:migrate`),
 * never here. Without DATABASE_URL (a local run alone): PGlite in PGLITE_DATA_DIR, migrated
 * here, as `pnpm start` lays it out (not while `pnpm start` runs: PGlite serves one process).
 */
export async function openResources(env: Env): Promise<Resources> {
  if (env.databaseUrl !== null) {
    // The usage maintenance aggregates and deletes hours of rows in one statement: longer than
    // the services' per-statement deadline, which is set for interactive reads.
    const database = await createDatabase({ databaseUrl: env.databaseUrl, queryTimeoutMs: 120_000 });
    return { database, close: () => database.close() };
  }
  await mkdir(env.pgliteDataDir, { recursive: true });
  const pglite = await createPglite({ dataDir: env.pgliteDataDir });
  try {
    const database = await createDatabase({ pglite });
    await migrate({ adapterFactory: database.adapterFactory });
    return {
      database,
      async close() {
        await database.close();
        await pglite.close();
      },
    };
  } catch (error) {
    await pglite.close();
    throw error;
  }
}
