import type { Repositories } from '@cp/domain';
import { createDatabase, type Database } from '../client.js';
import type { PrismaClient } from '../generated/prisma/client.js';
import { createRepositories } from '../repositories/index.js';
import { openMigratedPglite } from './pglite-snapshot.js';
import { createDatabaseFromTemplate, dropDatabase } from './postgres-template.js';

export interface TestDatabase {
  readonly kind: 'postgres' | 'pglite';
  readonly prisma: PrismaClient;
  readonly repos: Repositories;
  /** PostgreSQL only: the connection string of this test's own database. */
  readonly url?: string;
  /** For `migrate({ adapterFactory })` in tests of the migration runner. */
  readonly database: Database;
  /** Disconnects and deletes the database (PostgreSQL: DROP DATABASE; PGlite: it was in memory). */
  close(): Promise<void>;
}

export interface TestDatabaseOptions {
  /** Default: "postgres" when `databaseUrl` (default: env DATABASE_URL) is set, else "pglite". */
  readonly kind?: 'postgres' | 'pglite';
  /** The PostgreSQL server to use (any database on it: a new one is created next to it). */
  readonly databaseUrl?: string;
}

/**
 * A new, empty, migrated database for one test file (or one test).
 * - PostgreSQL: a uniquely named database copied from a migrated template on the
 *   server in DATABASE_URL, dropped on `close()`.
 * - PGlite: an in-memory database loaded from a migrated snapshot.
 * Call `close()` in afterAll.
 */
export async function createTestDatabase(options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const serverUrl = options.databaseUrl ?? (process.env.DATABASE_URL || undefined);
  const kind = options.kind ?? (serverUrl ? 'postgres' : 'pglite');
  if (kind === 'pglite') {
    const pglite = await openMigratedPglite();
    const database = await createDatabase({ pglite });
    return wrap(database, undefined, async () => {
      await database.close();
      await pglite.close();
    });
  }
  if (!serverUrl)
    throw new Error(
      'createTestDatabase({ kind: "postgres" }) needs DATABASE_URL (or the databaseUrl option).',
    );
  const { url, name } = await createDatabaseFromTemplate(serverUrl);
  // Test fixtures run bulk inserts, and tests bursts of parallel writes, on a busy machine (CI runs
  // lanes side by side on two cores): the production deadlines (tight, for outages) would cancel
  // statements and give up waiting for a connection. The outage tests open their own pool with the defaults.
  const database = await createDatabase({ databaseUrl: url, poolSize: 10, queryTimeoutMs: 60_000, connectTimeoutMs: 30_000 });
  return wrap(database, url, async () => {
    await database.close();
    await dropDatabase(serverUrl, name);
  });
}

function wrap(
  database: Database,
  url: string | undefined,
  close: () => Promise<void>,
): TestDatabase {
  let closed: Promise<void> | undefined;
  return {
    kind: database.kind,
    prisma: database.prisma,
    repos: createRepositories(database),
    ...(url ? { url } : {}),
    database,
    close: () => (closed ??= close()),
  };
}
