import { cp, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGliteAdapterFactory } from '../src/adapters/pglite.js';
import { createPglite, defaultMigrationsDir, migrate } from '../src/index.js';

const MIGRATION = /_environment_protected$/;

// Organizations made before the column existed: their `prod` becomes protected, nothing else does.
describe('the environment_protected migration', () => {
  it('protects every existing environment named prod, and only those', async () => {
    const db = await createPglite();
    const dir = await mkdtemp(join(tmpdir(), 'cp-db-migrations-'));
    try {
      const names = (await readdir(defaultMigrationsDir, { withFileTypes: true }))
        .filter((e) => e.isDirectory())
        .map((e) => e.name)
        .sort();
      const index = names.findIndex((name) => MIGRATION.test(name));
      expect(index).toBeGreaterThan(0);
      for (const name of names.slice(0, index))
        await cp(join(defaultMigrationsDir, name), join(dir, name), { recursive: true });
      const target = { adapterFactory: new PGliteAdapterFactory(db) };
      await migrate({ ...target, migrationsDir: dir });

      await db.exec(`
        INSERT INTO organizations (id, name, created_at) VALUES
          ('00000000-0000-4000-8000-000000000001', 'One', now()), ('00000000-0000-4000-8000-000000000002', 'Two', now());
        INSERT INTO environments (id, organization_id, name, created_at) VALUES
          ('00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-000000000001', 'prod', now()),
          ('00000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-000000000001', 'staging', now()),
          ('00000000-0000-4000-8000-00000000000c', '00000000-0000-4000-8000-000000000002', 'prod', now()),
          ('00000000-0000-4000-8000-00000000000d', '00000000-0000-4000-8000-000000000002', 'production', now());`);
      expect((await migrate({ ...target, migrationsDir: defaultMigrationsDir })).applied).toEqual(
        names.slice(index),
      );

      const rows = await db.query<{ organization_id: string; name: string; protected: boolean }>(
        'SELECT organization_id, name, protected FROM environments ORDER BY organization_id, name',
      );
      expect(rows.rows.map((r) => [r.organization_id.slice(-1), r.name, r.protected])).toEqual([
        ['1', 'prod', true],
        ['1', 'staging', false],
        ['2', 'prod', true],
        ['2', 'production', false],
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await db.close();
    }
  }, 60_000);
});
