import { Prisma } from '../src/generated/prisma/client.js';
import { trigramWalk, type NameOrderStart } from '../src/repositories/name-trigram-walk.js';
import { SUMMARY_COLUMNS } from '../src/repositories/name-filter.js';
import { aComponent, aUserWithOrganization } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';

// component_name_trigrams, kept by triggers on components, and the walk over it.
describeEachBackend('components: the name trigram rows', (db) => {
  const rowsOf = async (componentId: string) =>
    (
      await db().database.sql.rows<{ trigram: string; nameKey: string; organizationId: string }>({
        text: `SELECT trigram, name_key AS "nameKey", organization_id::text AS "organizationId"
               FROM component_name_trigrams WHERE component_id = $1::uuid ORDER BY trigram`,
        values: [componentId],
      })
    ).map((row) => `${row.organizationId}/${row.nameKey}/${row.trigram}`);
  const expectedRows = (organizationId: string, nameKey: string) =>
    [...new Set([...nameKey].slice(0, -2).map((_, i) => [...nameKey].slice(i, i + 3).join('')))]
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((trigram) => `${organizationId}/${nameKey}/${trigram}`);
  const execute = (sql: string, ...values: unknown[]) => db().prisma.$executeRawUnsafe(sql, ...values);

  it('holds each distinct three-character substring of a name from insert to rename to delete', async () => {
    const { user, organization } = await aUserWithOrganization(db().repos);
    const other = (await aUserWithOrganization(db().repos)).organization.id;
    const { id } = await aComponent(db().repos, { organizationId: organization.id, createdBy: user.id, name: 'Ärger-Modal-aaaa' });
    expect(await rowsOf(id)).toEqual(expectedRows(organization.id, 'ärger-modal-aaaa'));

    await execute(`UPDATE components SET tags = '{x}', updated_at = now() WHERE id = $1::uuid`, id);
    expect(await rowsOf(id)).toEqual(expectedRows(organization.id, 'ärger-modal-aaaa'));
    await execute(`UPDATE components SET name = 'Ab', name_key = 'ab' WHERE id = $1::uuid`, id);
    expect(await rowsOf(id)).toEqual([]);
    await execute(`UPDATE components SET name = 'ΟΔΟΣ-x', name_key = 'οδοσ-x', organization_id = $2::uuid WHERE id = $1::uuid`, id, other);
    expect(await rowsOf(id)).toEqual(expectedRows(other, 'οδοσ-x'));

    await execute(`DELETE FROM components WHERE id = $1::uuid`, id);
    expect(await rowsOf(id)).toEqual([]);
  });

  it('goes with the organization, and two components swapping names in one statement keep their own rows', async () => {
    const { user } = await aUserWithOrganization(db().repos);
    const organization = { id: crypto.randomUUID() };
    await execute(`INSERT INTO organizations (id, name, created_at) VALUES ($1::uuid, 'to delete', now())`, organization.id);
    const a = await aComponent(db().repos, { organizationId: organization.id, createdBy: user.id, name: 'first-one' });
    const b = await aComponent(db().repos, { organizationId: organization.id, createdBy: user.id, name: 'second-one' });
    await execute(
      `UPDATE components SET name_key = CASE WHEN id = $1::uuid THEN 'second-two' ELSE 'first-two' END WHERE id IN ($1::uuid, $2::uuid)`,
      a.id,
      b.id,
    );
    expect(await rowsOf(a.id)).toEqual(expectedRows(organization.id, 'second-two'));
    expect(await rowsOf(b.id)).toEqual(expectedRows(organization.id, 'first-two'));

    await execute(`DELETE FROM organizations WHERE id = $1::uuid`, organization.id);
    expect([...(await rowsOf(a.id)), ...(await rowsOf(b.id))]).toEqual([]);
  });

  describe('the walk', () => {
    let organizationId: string;
    beforeAll(async () => {
      const owner = await aUserWithOrganization(db().repos);
      organizationId = owner.organization.id;
      const other = (await aUserWithOrganization(db().repos)).organization.id;
      // "early" in the first names only, "late" in the last only, "every" all over; tag t on every third.
      for (const org of [organizationId, other]) {
        await execute(
          `INSERT INTO components (id, organization_id, name, name_key, tags, created_at, updated_at)
           SELECT gen_random_uuid(), $1::uuid, n, lower(n), CASE WHEN i % 3 = 0 THEN '{t}'::text[] ELSE '{}' END, now(), now()
           FROM generate_series(1, 600) AS i,
             LATERAL (SELECT lpad(i::text, 4, '0') || CASE WHEN i <= 40 THEN '-Early' WHEN i > 520 THEN '-Late' ELSE '' END
                             || CASE WHEN i % 7 = 0 THEN '-every' ELSE '' END AS n) AS x`,
          org,
        );
      }
      await execute('ANALYZE component_name_trigrams');
    });

    const walk = (fragment: string, tag: string | undefined, limit: number, start: NameOrderStart) =>
      trigramWalk(db().database.sql, {
        start,
        columns: SUMMARY_COLUMNS,
        scope: Prisma.sql`organization_id = ${organizationId}::uuid ${start.after ? Prisma.sql`AND (name_key, id) > (${start.after.nameKey}, ${start.after.id}::uuid)` : Prisma.empty}`,
        filter: Prisma.sql`AND name_key LIKE ${`%${fragment}%`} ${tag ? Prisma.sql`AND ${tag} = ANY(tags)` : Prisma.empty}`,
        fragment,
        limit,
        offset: 0,
      });
    const reference = async (fragment: string, tag: string | undefined) =>
      (
        await db().database.sql.rows<{ id: string; name: string }>({
          text: `SELECT id, name FROM components WHERE organization_id = $1::uuid AND strpos(name_key, $2) > 0
                 AND ($3::text IS NULL OR $3 = ANY(tags)) ORDER BY name_key, id`,
          values: [organizationId, fragment, tag ?? null],
        })
      ).map((row) => `${row.name}/${row.id}`);

    it.each([
      ['ear', undefined],
      ['late', undefined],
      ['late', 't'],
      ['every', undefined],
      ['-every', 't'],
      ['00-', undefined],
      ['zzz', undefined],
    ])('pages through %s (tag %s) as the reference query, none skipped or repeated', async (fragment, tag) => {
      const pages: string[] = [];
      let start: NameOrderStart = { organizationId };
      for (;;) {
        const rows = await walk(fragment, tag, 7, start);
        pages.push(...rows.map((row) => `${row.name}/${row.id}`));
        if (rows.length < 7) break;
        start = { organizationId, after: { nameKey: rows.at(-1)!.name.toLowerCase(), id: rows.at(-1)!.id } };
      }
      expect(pages).toEqual(await reference(fragment, tag));
    });
  });
});
