import { randomUUID } from 'node:crypto';
import { withClient } from '../src/connection/ensure-database.js';
import { databaseUrlFor } from '../src/connection/postgres-url.js';
import {
  aComponent,
  aUserWithOrganization,
  aVariant,
  createTestDatabase,
} from '../src/testing/index.js';
import { backends } from './support/backends.js';

describe.each(backends)('createTestDatabase() [%s]', (kind) => {
  it('gives each caller its own empty, migrated database', async () => {
    const [one, two] = await Promise.all([
      createTestDatabase({ kind }),
      createTestDatabase({ kind }),
    ]);
    try {
      expect(one.kind).toBe(kind);
      const { user } = await aUserWithOrganization(one.repos);
      expect(await one.repos.users.findById(user.id)).not.toBeNull();
      expect(await two.repos.users.findById(user.id)).toBeNull();
      expect(await two.prisma.user.count()).toBe(0);
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  }, 60_000);

  it('builders create data through the repositories', async () => {
    const db = await createTestDatabase({ kind });
    try {
      const owner = await aUserWithOrganization(db.repos, { email: 'Builder@Example.test' });
      expect(owner.environments.map((env) => env.name)).toEqual(['prod', 'staging']);
      const component = await aComponent(db.repos, {
        organizationId: owner.organization.id,
        name: 'Card',
        tags: ['ui'],
      });
      expect(component).toMatchObject({ name: 'Card', tags: ['ui'], variantsCount: 1 });
      const variant = await aVariant(db.repos, {
        componentId: component.id,
        createdBy: owner.user.id,
      });
      expect(variant.sequence).toBe(2);
      await expect(
        aVariant(db.repos, { componentId: randomUUID(), createdBy: owner.user.id }),
      ).rejects.toThrow(/no component/);
    } finally {
      await db.close();
    }
  }, 60_000);

  if (kind === 'postgres') {
    it('creates a cp_test_* database on the server and drops it on close', async () => {
      const db = await createTestDatabase({ kind });
      const name = new URL(db.url!).pathname.slice(1);
      expect(name).toMatch(/^cp_test_/);
      const exists = () =>
        withClient(
          databaseUrlFor(process.env.DATABASE_URL!, 'postgres'),
          async (client) =>
            (await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]))
              .rowCount === 1,
        );
      expect(await exists()).toBe(true);
      await db.close();
      expect(await exists()).toBe(false);
    });
  }
});
