import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrationNameFrom, migrationTimestamp } from '../src/migrations/migrate.js';
import { createMigration, defaultMigrationsDir, defaultSchemaPath } from '../src/index.js';

// Each createMigration replays the migrations in fresh in-memory PGlite databases (seconds).
const SLOW = 60_000;

const entries = async (dir: string) => (await readdir(dir)).sort();

describe('createMigration()', () => {
  let work: string;
  beforeEach(async () => {
    work = await mkdtemp(join(tmpdir(), 'cp-db-create-'));
  });
  afterEach(() => rm(work, { recursive: true, force: true }));

  it(
    'writes nothing when the schema matches the committed migrations',
    async () => {
      const before = await entries(defaultMigrationsDir);
      expect(await createMigration('nothing_to_do')).toEqual({ directory: null, script: null });
      expect(await entries(defaultMigrationsDir)).toEqual(before);
    },
    SLOW,
  );

  it(
    'writes the difference as <timestamp>_<name>/migration.sql',
    async () => {
      const migrationsDir = join(work, 'migrations');
      await cp(defaultMigrationsDir, migrationsDir, { recursive: true });
      const schemaPath = join(work, 'schema.prisma');
      const schema = await readFile(defaultSchemaPath, 'utf8');
      await writeFile(
        schemaPath,
        `${schema}\nmodel Thing {\n  id String @id @db.Uuid\n  @@map("things")\n}\n`,
      );
      const now = new Date('2030-01-02T03:04:05Z');

      const { directory, script } = await createMigration('add thing!', {
        migrationsDir,
        schemaPath,
        now,
      });
      expect(directory).toBe(join(migrationsDir, '20300102030405_add_thing'));
      expect(script).toContain('CREATE TABLE "things"');
      expect(await readFile(join(directory!, 'migration.sql'), 'utf8')).toBe(script);
      // Now in sync: a second run writes nothing.
      expect((await createMigration('again', { migrationsDir, schemaPath })).directory).toBeNull();
    },
    SLOW,
  );

  it(
    'starts a migrations directory from nothing, with the lock file',
    async () => {
      const migrationsDir = join(work, 'fresh');
      const { directory, script } = await createMigration('init', { migrationsDir });
      expect(script).toContain('CREATE TABLE "components"');
      expect(await entries(migrationsDir)).toEqual([
        directory!.split('/').at(-1),
        'migration_lock.toml',
      ]);
      expect(await readFile(join(migrationsDir, 'migration_lock.toml'), 'utf8')).toContain(
        'provider = "postgresql"',
      );
      // Every table the committed migrations create (the runner made them) is
      // created here with each of its lines word for word (a later migration may add columns).
      const committed = (await entries(defaultMigrationsDir)).filter(
        (name) => name !== 'migration_lock.toml',
      );
      const tableIn = (sql: string, name: string) =>
        new RegExp(`CREATE TABLE "${name}" \\([\\s\\S]*?\\n\\);`).exec(sql)?.[0];
      for (const name of committed) {
        const sql = await readFile(join(defaultMigrationsDir, name, 'migration.sql'), 'utf8');
        for (const [table, tableName] of sql.matchAll(/CREATE TABLE "([^"]+)" \([\s\S]*?\n\);/g)) {
          const fresh = tableIn(script ?? '', tableName!);
          expect(fresh).toBeDefined();
          const freshLines = fresh!.split('\n');
          for (const line of table.split('\n')) expect(freshLines).toContain(line);
        }
      }
    },
    SLOW,
  );

  it('names migrations safely', () => {
    expect(migrationNameFrom(' add-flow tags ')).toBe('add_flow_tags');
    expect(() => migrationNameFrom('!!!')).toThrow(/not a usable migration name/);
    expect(migrationTimestamp(new Date('2026-11-22T03:20:59.999Z'))).toBe('20261122032059');
  });
});
