import { randomUUID } from 'node:crypto';
import { aComponent, aUserWithOrganization, aVariant } from '../src/testing/index.js';
import { describeEachBackend } from './support/backends.js';

describeEachBackend('variants', (db) => {
  it('finds a variant by id, the latest one, and pages newest first', async () => {
    const { user, organization } = await aUserWithOrganization(db().repos);
    const component = await aComponent(db().repos, {
      organizationId: organization.id,
      createdBy: user.id,
    });
    const second = await aVariant(db().repos, { componentId: component.id, createdBy: user.id });
    const third = await aVariant(db().repos, { componentId: component.id, createdBy: user.id });

    expect(second).toMatchObject({ componentId: component.id, sequence: 2, createdBy: user.id });
    expect(await db().repos.variants.findById(second.id)).toEqual(second);
    expect(await db().repos.variants.findLatest(component.id)).toEqual(third);

    const all = await db().repos.variants.listForComponent(component.id, { limit: 10 });
    expect(all.map((variant) => variant.sequence)).toEqual([3, 2, 1]);
    const page = await db().repos.variants.listForComponent(component.id, {
      limit: 1,
      beforeSequence: 3,
    });
    expect(page).toEqual([second]);
    // A cursor past what the int4 column holds is past every variant, not a database error.
    for (const beforeSequence of [2 ** 31 - 1, 2 ** 31, Number.MAX_SAFE_INTEGER]) {
      const older = await db().repos.variants.listForComponent(component.id, { limit: 10, beforeSequence });
      expect(older.map((variant) => variant.sequence)).toEqual([3, 2, 1]);
    }
  });

  it("finds many: those of the ids that are the component's variants, whatever else is asked", async () => {
    const { user, organization } = await aUserWithOrganization(db().repos);
    const component = await aComponent(db().repos, { organizationId: organization.id, createdBy: user.id });
    const other = await aComponent(db().repos, { organizationId: organization.id, createdBy: user.id });
    const second = await aVariant(db().repos, { componentId: component.id, createdBy: user.id });
    const first = (await db().repos.variants.listForComponent(component.id, { limit: 10 }))[1]!;
    const elsewhere = (await db().repos.variants.findLatest(other.id))!;
    const found = await db().repos.variants.findMany(component.id, [second.id, 'not-a-uuid', elsewhere.id, randomUUID(), first.id]);
    expect(found.sort((a, b) => a.sequence - b.sequence)).toEqual([first, second]);
    expect(await db().repos.variants.findMany(component.id, [])).toEqual([]);
    expect(await db().repos.variants.findMany('x', [second.id])).toEqual([]);
  });

  it('answers null / empty for unknown ids', async () => {
    expect(await db().repos.variants.findById(randomUUID())).toBeNull();
    expect(await db().repos.variants.findById('x')).toBeNull();
    expect(await db().repos.variants.findLatest(randomUUID())).toBeNull();
    expect(await db().repos.variants.listForComponent(randomUUID(), { limit: 5 })).toEqual([]);
  });
});
