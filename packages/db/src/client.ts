import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PGliteAdapterFactory } from './adapters/pglite.js';
import { PostgresMigrationAdapterFactory } from './adapters/postgres.js';
import { createPglite } from './pglite.js';
import { startAutoAnalyze } from './pglite-autoanalyze.js';
import { defaultPgliteDataDir, MEMORY } from './connection/data-dir.js';
import { connectionError, databaseName, describeServer } from './connection/postgres-url.js';
import { PrismaClient } from './generated/prisma/client.js';
import { pgliteReader, poolReader, type SqlReader } from './sql-reader.js';
import { pgliteExecutor, poolExecutor, type SqlExecutor } from './jobs/sql-executor.js';

export interface DatabaseOptions {
  /** PostgreSQL connection string. When absent, the embedded PGlite database is used. */
  readonly databaseUrl?: string | undefined;
  /** PostgreSQL: most connections the pool opens (default 10). */
  readonly poolSize?: number | undefined;
  /** PostgreSQL: how long to wait for a connection, opened or from the pool, in ms (default 1000). */
  readonly connectTimeoutMs?: number | undefined;
  /** PostgreSQL: how long one statement may take before the client gives up on its connection, in ms (default 1500). */
  readonly queryTimeoutMs?: number | undefined;
  /**
   * PGlite: the data folder (created if missing), or "memory://" for a database
   * that lives and dies with the process. Default: `.data/pglite` under the
   * repository root (the nearest folder with pnpm-workspace.yaml), else the cwd.
   */
  readonly pgliteDataDir?: string | undefined;
  /**
   * PGlite: an instance opened by the caller with `createPglite` (not closed by `close()`);
   * wins over `pgliteDataDir`.
   */
  readonly pglite?: PGlite | undefined;
}

export interface Database {
  readonly kind: 'postgres' | 'pglite';
  readonly prisma: PrismaClient;
  /** Hand-written read statements, on the same pool or PGlite instance as `prisma`. */
  readonly sql: SqlReader;
  /** pg-boss's `db` (the worker's job queue), on the same pool or PGlite instance as `prisma`. */
  readonly jobsDb: SqlExecutor;
  /**
   * What `migrate({ adapterFactory })` needs for this database: a dedicated
   * single connection for PostgreSQL, the same PGlite instance for PGlite
   * (PGlite serves one process, so migrations must go through it).
   */
  readonly adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /** For messages: `host:port/database` (no credentials), the PGlite folder, or "memory://". */
  readonly location: string;
  close(): Promise<void>;
}

// Interactive transactions wait for a connection (PGlite has one and runs them in
// turn), so the defaults of 2 s / 5 s are too tight under a burst of confirms.
const transactionOptions = { maxWait: 10_000, timeout: 30_000 };

/**
 * Named statements are parsed and planned once per connection instead of on every
 * call (measured: most of PostgreSQL's CPU per statement on the hot reads). The
 * name is a hash of the SQL text, so one name never means two statements; the
 * number of names is bounded by the number of distinct statements the code sends.
 * Statements name their columns, so adding a column never invalidates them;
 * migrations that drop or retype a column need new code anyway.
 */
const preparedStatementName = (query: { sql: string }): string =>
  `cp_${createHash('sha1').update(query.sql).digest('base64url')}`;

/**
 * Opens the application database: PostgreSQL through `@prisma/adapter-pg` when
 * `databaseUrl` is set, otherwise PGlite. Fails fast, with a message naming the
 * server (never the password), when PostgreSQL cannot be reached.
 * The schema is not migrated here: call `migrate()` (or `pnpm db:migrate`).
 */
export async function createDatabase(options: DatabaseOptions = {}): Promise<Database> {
  return options.databaseUrl ? openPostgres(options.databaseUrl, options) : openPglite(options);
}

async function openPostgres(databaseUrl: string, options: DatabaseOptions): Promise<Database> {
  const queryTimeoutMs = options.queryTimeoutMs ?? 1_500;
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max: options.poolSize ?? 10,
    // Bounded waits, so that a database that stops answering (a partition, a stalled
    // server) is reported as unavailable fast enough for every edge's deadline (the
    // delivery API's load timeout, the MCP tool answer) instead of holding requests:
    // - a connection (new, or a free one of the pool) comes within a second on a healthy
    //   database, even under a burst of requests;
    connectionTimeoutMillis: options.connectTimeoutMs ?? 1_000,
    // - every statement here is an indexed OLTP read or write: the client stops waiting
    //   and drops the connection after this long, and the server cancels the statement a
    //   little before (statement_timeout), so a slow statement fails as one, cleanly;
    query_timeout: queryTimeoutMs,
    statement_timeout: Math.max(100, queryTimeoutMs - 250),
    // - TCP keepalive finds connections to a host that vanished (no RST ever comes)
    //   while they sit idle in the pool.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  // An idle connection dropped by the server must not crash the process; the
  // next query reconnects or reports the failure.
  pool.on('error', () => undefined);
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw connectionError(databaseUrl, error);
  }
  const prisma = new PrismaClient({
    adapter: new PrismaPg(pool, { statementNameGenerator: preparedStatementName }),
    transactionOptions,
  });
  return {
    kind: 'postgres',
    prisma,
    sql: poolReader(pool, preparedStatementName),
    jobsDb: poolExecutor(pool),
    adapterFactory: new PostgresMigrationAdapterFactory(databaseUrl),
    location: `${describeServer(databaseUrl)}/${databaseName(databaseUrl)}`,
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

async function openPglite(options: DatabaseOptions): Promise<Database> {
  let db = options.pglite;
  const location = options.pglite ? 'pglite' : (options.pgliteDataDir ?? defaultPgliteDataDir());
  if (!db) {
    if (!location.startsWith(MEMORY)) await mkdir(location, { recursive: true });
    db = await createPglite(location.startsWith(MEMORY) ? {} : { dataDir: location });
  }
  const owned = !options.pglite;
  const autoAnalyze = await startAutoAnalyze(db);
  const adapterFactory = new PGliteAdapterFactory(db);
  const prisma = new PrismaClient({ adapter: adapterFactory, transactionOptions });
  const pglite = db;
  return {
    kind: 'pglite',
    prisma,
    sql: pgliteReader(db),
    jobsDb: pgliteExecutor(db),
    adapterFactory,
    location,
    async close() {
      await autoAnalyze.stop();
      await prisma.$disconnect();
      if (owned) await pglite.close();
    },
  };
}
