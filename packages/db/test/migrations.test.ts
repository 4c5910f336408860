import { createHash, randomBytes } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGliteAdapterFactory } from '../src/adapters/pglite.js';
import { withClient } from '../src/connection/ensure-database.js';
import { databaseUrlFor } from '../src/connection/postgres-url.js';
import { createPglite, defaultMigrationsDir, migrate, type MigrationTarget } from '../src/index.js';
import { engineError, openSchemaEngine } from '../src/migrations/schema-engine.js';
import { backends } from './support/backends.js';

const committed = async () =>
  (await readdir(defaultMigrationsDir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A brand-new empty database of each kind, and a way to query it. */
interface Empty {
  target: MigrationTarget;
  query<T>(sql: string): Promise<T[]>;
  close(): Promise<void>;
}

async function emptyDatabase(kind: 'pglite' | 'postgres'): Promise<Empty> {
  if (kind === 'pglite') {
    const db = await createPglite();
    return {
      target: { adapterFactory: new PGliteAdapterFactory(db) },
      query: async <T>(sql: string) => (await db.query<T>(sql)).rows,
      close: () => db.close(),
    };
  }
  const server = process.env.DATABASE_URL!;
  const name = `cp_test_migrate_${randomBytes(4).toString('hex')}`;
  const url = databaseUrlFor(server, name);
  return {
    target: { databaseUrl: url }, // migrate() creates the database, as prisma migrate deploy does
    query: <T>(sql: string) =>
      withClient(url, async (client) => (await client.query(sql)).rows as T[]),
    close: () =>
      withClient(databaseUrlFor(server, 'postgres'), (c) =>
        c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
      ).then(() => undefined),
  };
}

describe.each(backends)('migrate() [%s]', (kind) => {
  let db: Empty;
  beforeAll(async () => {
    db = await emptyDatabase(kind);
  }, 60_000);
  afterAll(() => db?.close());

  it('applies every committed migration to an empty database, then does nothing', async () => {
    expect((await migrate(db.target)).applied).toEqual(await committed());
    expect((await migrate(db.target)).applied).toEqual([]);
    const tables = await db.query<{ table_name: string }>(
      "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
    );
    expect(tables.map((t) => t.table_name)).toEqual(
      expect.arrayContaining(['components', 'variants', 'oidc_payloads', '_prisma_migrations']),
    );
  });

  it('writes _prisma_migrations exactly as prisma migrate deploy does', async () => {
    const columns = await db.query<{
      column_name: string;
      data_type: string;
      character_maximum_length: number | null;
    }>(
      `SELECT column_name, data_type, character_maximum_length FROM information_schema.columns
       WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
    );
    expect(columns.map((c) => [c.column_name, c.data_type, c.character_maximum_length])).toEqual([
      ['id', 'character varying', 36],
      ['checksum', 'character varying', 64],
      ['finished_at', 'timestamp with time zone', null],
      ['migration_name', 'character varying', 255],
      ['logs', 'text', null],
      ['rolled_back_at', 'timestamp with time zone', null],
      ['started_at', 'timestamp with time zone', null],
      ['applied_steps_count', 'integer', null],
    ]);
    const rows = await db.query<Record<string, unknown>>(
      'SELECT * FROM _prisma_migrations ORDER BY migration_name',
    );
    const names = await committed();
    expect(rows).toHaveLength(names.length);
    for (const [i, row] of rows.entries()) {
      const script = await readFile(join(defaultMigrationsDir, names[i]!, 'migration.sql'), 'utf8');
      expect(row).toMatchObject({
        migration_name: names[i],
        checksum: sha256(script),
        logs: null,
        rolled_back_at: null,
        applied_steps_count: 1,
      });
      expect(row.id).toMatch(/^[0-9a-f-]{36}$/);
      expect((row.finished_at as Date).getTime()).toBeGreaterThanOrEqual(
        (row.started_at as Date).getTime(),
      );
    }
  });

  it('records a failing migration as failed, applies none of it, and refuses to go on (P3009)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cp-db-migrations-'));
    try {
      await cp(defaultMigrationsDir, dir, { recursive: true });
      await mkdir(join(dir, '29990101000000_broken'));
      await writeFile(
        join(dir, '29990101000000_broken', 'migration.sql'),
        "CREATE TABLE half_done (note text DEFAULT 'a;b');\nSELECT * FROM no_such_table;\n",
      );
      const target = { ...db.target, migrationsDir: dir };
      await expect(migrate(target)).rejects.toThrow(/no_such_table/);
      const [row] = await db.query<{ finished_at: Date | null; logs: string }>(
        "SELECT finished_at, logs FROM _prisma_migrations WHERE migration_name = '29990101000000_broken'",
      );
      expect(row).toMatchObject({
        finished_at: null,
        logs: expect.stringContaining('no_such_table'),
      });
      expect(
        await db.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'half_done'"),
      ).toEqual([]);
      await expect(migrate(target)).rejects.toThrow(/P3009/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a crash inside the schema engine', () => {
  it('is reported with its reason', async () => {
    const db = await createPglite();
    try {
      const adapterFactory = new PGliteAdapterFactory(db);
      const engine = await openSchemaEngine(adapterFactory);
      let crash: Error | undefined;
      try {
        engine.debugPanic();
      } catch (error) {
        crash = engineError(error);
      }
      expect(crash?.message).toMatch(
        /crashed \(restart the process\): [^]*debugPanic artificial panic/,
      );
    } finally {
      await db.close();
    }
  }, 60_000);
});
