import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { PGliteAdapterFactory } from '../adapters/pglite.js';
import { migrate } from '../migrations/migrate.js';
import { migrationsFingerprint, readMigrations } from '../migrations/migrations-dir.js';
import { createPglite } from '../pglite.js';

/*
 * A fresh in-memory PGlite pays for initdb plus the migrations; loading a dump of
 * an already migrated one is several times cheaper. So the first test database builds
 * that dump and keeps it in the OS temp folder, named by a hash of the committed
 * migrations and the PGlite version: a changed migration gets a new snapshot, and
 * a snapshot that fails to load or to verify is rebuilt, never trusted.
 */

const pgliteVersion = installedVersion('@electric-sql/pglite');

/** A package's version, from the package.json above its entry (its exports hide package.json). */
function installedVersion(name: string): string {
  let dir = dirname(createRequire(import.meta.url).resolve(name));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string })
    .version;
}

let memo: Promise<Blob> | undefined;

/** A tarball of a migrated, empty PGlite data directory (cached per process and on disk). */
export function migratedPgliteSnapshot(): Promise<Blob> {
  memo ??= loadOrBuild();
  memo.catch(() => (memo = undefined));
  return memo;
}

/** Opens an in-memory PGlite from the snapshot and checks it holds every migration. */
export async function openMigratedPglite(): Promise<PGlite> {
  const expected = (await readMigrations()).migrationDirectories.length;
  for (let attempt = 0; ; attempt++) {
    const db = await createPglite({ loadDataDir: await migratedPgliteSnapshot() }).catch(
      () => null,
    );
    if (db && (await appliedCount(db)) === expected) return db;
    await db?.close();
    if (attempt > 0)
      throw new Error('could not build a migrated PGlite test database (see the errors above)');
    await forgetSnapshot();
  }
}

async function appliedCount(db: PGlite): Promise<number> {
  const { rows } = await db
    .query<{ n: number }>(
      'SELECT count(*)::int AS n FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL',
    )
    .catch(() => ({ rows: [{ n: -1 }] }));
  return rows[0]?.n ?? -1;
}

async function snapshotFile(): Promise<string> {
  const fingerprint = migrationsFingerprint(await readMigrations());
  const key = createHash('sha256')
    .update(`${fingerprint}\0pglite ${pgliteVersion}`)
    .digest('hex')
    .slice(0, 16);
  return join(tmpdir(), 'cp-db-test', `pglite-migrated-${key}.tar`);
}

async function loadOrBuild(): Promise<Blob> {
  const file = await snapshotFile();
  const cached = await readFile(file).catch(() => null);
  if (cached) return new Blob([cached]);

  const db = await createPglite();
  try {
    await migrate({ adapterFactory: new PGliteAdapterFactory(db) });
    const dump = await db.dumpDataDir('none');
    // Write then rename: parallel jest workers never read a half-written file.
    await mkdir(join(tmpdir(), 'cp-db-test'), { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    await writeFile(partial, new Uint8Array(await dump.arrayBuffer()));
    await rename(partial, file);
    return dump;
  } finally {
    await db.close();
  }
}

async function forgetSnapshot(): Promise<void> {
  memo = undefined;
  await rm(await snapshotFile(), { force: true });
}
