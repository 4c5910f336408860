import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SqlMigrationAwareDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PGliteAdapterFactory } from '../adapters/pglite.js';
import { PostgresMigrationAdapterFactory } from '../adapters/postgres.js';
import { ensurePostgresDatabase } from '../connection/ensure-database.js';
import { createPglite } from '../pglite.js';
import {
  defaultMigrationsDir,
  defaultSchemaPath,
  LOCKFILE,
  readMigrations,
} from './migrations-dir.js';
import { engineError, openSchemaEngine } from './schema-engine.js';
import { trackAdapters } from './tracked-adapters.js';

const NO_FILTER = { externalTables: [], externalEnums: [] };

export type MigrationTarget =
  | {
      readonly adapterFactory: SqlMigrationAwareDriverAdapterFactory;
      readonly databaseUrl?: undefined;
    }
  | { readonly databaseUrl: string; readonly adapterFactory?: undefined };

export type MigrateOptions = MigrationTarget & {
  /** Default: packages/db/prisma/migrations. */
  readonly migrationsDir?: string;
  /** Progress lines (the engine's own log is not forwarded). */
  readonly log?: (line: string) => void;
};

/**
 * Applies the committed migrations that the database has not seen yet; a no-op
 * when it is up to date. The engine is Prisma's own, so `_prisma_migrations` is
 * written exactly as `prisma migrate deploy` writes it, and it takes the same
 * advisory lock, so two processes migrating at once apply each migration once.
 * With `databaseUrl`, a missing database is created first (as `migrate deploy` does).
 */
export async function migrate(options: MigrateOptions): Promise<{ applied: string[] }> {
  const log = options.log ?? (() => undefined);
  let adapterFactory = options.adapterFactory;
  if (options.databaseUrl !== undefined) {
    if (await ensurePostgresDatabase(options.databaseUrl))
      log('Created the database named in DATABASE_URL.');
    adapterFactory = new PostgresMigrationAdapterFactory(options.databaseUrl);
  }
  if (!adapterFactory) throw new Error('migrate() needs an adapterFactory or a databaseUrl.');

  const migrationsList = await readMigrations(options.migrationsDir ?? defaultMigrationsDir);
  const connections = trackAdapters(adapterFactory);
  try {
    const engine = await openSchemaEngine(connections.factory);
    const { appliedMigrationNames } = await engine
      .applyMigrations({ migrationsList, filters: NO_FILTER })
      .catch((error: unknown) => Promise.reject(engineError(error)))
      .finally(() => engine.free());
    for (const name of appliedMigrationNames) log(`Applied migration ${name}`);
    return { applied: appliedMigrationNames };
  } finally {
    await connections.disposeAll();
  }
}

export interface CreateMigrationOptions {
  readonly migrationsDir?: string;
  readonly schemaPath?: string;
  /** The migration's timestamp (default: now). */
  readonly now?: Date;
}

/**
 * Writes `prisma/migrations/<timestamp>_<name>/migration.sql` with the SQL that
 * takes a database from the committed migrations to the schema, and the lock
 * file. Returns `{ directory: null }` and writes nothing when they already match.
 */
export async function createMigration(
  name: string,
  options: CreateMigrationOptions = {},
): Promise<{ directory: string | null; script: string | null }> {
  const migrationName = migrationNameFrom(name);
  const baseDir = options.migrationsDir ?? defaultMigrationsDir;
  const schemaPath = options.schemaPath ?? defaultSchemaPath;
  const schema = { path: schemaPath, content: await readFile(schemaPath, 'utf8') };
  const migrationsList = await readMigrations(baseDir);

  // The engine replays the migrations in a shadow database (a throw-away in-memory
  // PGlite: no server needed) and compares the result with the schema. Its own
  // `createMigration` cannot be used: the WASM build gives that command no way to
  // open a shadow database for PostgreSQL.
  const scratch = await createPglite();
  const connections = trackAdapters(new PGliteAdapterFactory(scratch));
  try {
    const engine = await openSchemaEngine(connections.factory, { schema });
    const { exitCode, stdout } = await engine
      .diff({
        // A first migration has no lock file yet; the engine needs it to know the provider.
        from: {
          tag: 'migrations',
          ...migrationsList,
          lockfile: { path: LOCKFILE, content: LOCK_CONTENT },
        },
        to: { tag: 'schemaDatamodel', files: [schema] },
        script: true,
        exitCode: true, // 2 when there is a difference, 0 when there is none
        filters: NO_FILTER,
      })
      .catch((error: unknown) => Promise.reject(engineError(error)))
      .finally(() => engine.free());
    if (exitCode === 0 || !stdout) return { directory: null, script: null };

    const directory = join(
      baseDir,
      `${migrationTimestamp(options.now ?? new Date())}_${migrationName}`,
    );
    await mkdir(directory, { recursive: true });
    await writeFile(join(directory, 'migration.sql'), stdout, { flag: 'wx' });
    if (migrationsList.lockfile.content !== LOCK_CONTENT)
      await writeFile(join(baseDir, LOCKFILE), LOCK_CONTENT);
    return { directory, script: stdout };
  } finally {
    await connections.disposeAll();
    await scratch.close();
  }
}

// What `prisma migrate dev` writes, so the Prisma CLI accepts our migrations directory.
const LOCK_CONTENT =
  '# Please do not edit this file manually\n# It should be added in your version-control system (e.g., Git)\nprovider = "postgresql"\n';

/** `20250101120000`: UTC, to the second, as Prisma names migration directories. */
export function migrationTimestamp(date: Date): string {
  return date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** Migration names become directory names: letters, digits and "_" only. */
export function migrationNameFrom(raw: string): string {
  const name = raw
    .trim()
    .replace(/[^A-Za-z0-9_]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (name.length === 0 || name.length > 200) {
    throw new Error(
      `"${raw}" is not a usable migration name: use 1-200 letters, digits or "_" (for example add_flow_tags).`,
    );
  }
  return name;
}
