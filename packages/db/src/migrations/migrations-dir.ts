import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { MigrationList } from '@prisma/schema-engine-wasm/schema_engine_bg';

// Two levels up from src/migrations (and from dist/migrations after a build).
export const defaultMigrationsDir = fileURLToPath(
  new URL('../../prisma/migrations', import.meta.url),
);
export const defaultSchemaPath = fileURLToPath(
  new URL('../../prisma/schema.prisma', import.meta.url),
);

export const LOCKFILE = 'migration_lock.toml';
const SCRIPT = 'migration.sql';

/**
 * The migrations directory as the engine wants it: every sub-directory with its
 * migration.sql, sorted by name (the timestamp prefix), plus the lock file.
 * This is what `prisma migrate deploy` reads, so both apply the same list.
 */
export async function readMigrations(
  baseDir: string = defaultMigrationsDir,
): Promise<MigrationList> {
  const lockContent = await readFile(join(baseDir, LOCKFILE), 'utf8').catch(() => null);
  const entries = await readdir(baseDir, { withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    },
  );
  const directories = entries.filter((entry) => entry.isDirectory()).map((entry) => entry.name);
  directories.sort((a, b) => a.localeCompare(b));
  const migrationDirectories = await Promise.all(
    directories.map(async (path) => ({
      path,
      migrationFile: {
        path: SCRIPT,
        content: await readFile(join(baseDir, path, SCRIPT), 'utf8').then(
          (value) => ({ tag: 'ok' as const, value }),
          (error: Error) => ({ tag: 'error' as const, value: error.message }),
        ),
      },
    })),
  );
  return {
    baseDir,
    lockfile: { path: LOCKFILE, content: lockContent },
    shadowDbInitScript: '',
    migrationDirectories,
  };
}

/** sha256 of a migration script: the `checksum` column of `_prisma_migrations`. */
export const migrationChecksum = (script: string): string =>
  createHash('sha256').update(script).digest('hex');

/**
 * One hash over every committed migration (names and checksums): names a
 * database built from exactly these migrations (test templates, PGlite snapshots).
 */
export function migrationsFingerprint(list: MigrationList): string {
  const hash = createHash('sha256');
  for (const { path, migrationFile } of list.migrationDirectories) {
    hash.update(
      `${path}\0${migrationFile.content.tag === 'ok' ? migrationChecksum(migrationFile.content.value) : 'missing'}\n`,
    );
  }
  return hash.digest('hex');
}
