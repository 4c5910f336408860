import { randomUUID } from 'node:crypto';
import type { ComponentSummary } from '@cp/domain';
import { aComponent, anAuditNote, aUserWithOrganization, type Owner } from '../src/testing/index.js';
import { describeEachBackend, errorCode } from './support/backends.js';

describeEachBackend('components: lookup and listing', (db) => {
  let owner: Owner;
  const make = (name: string) =>
    aComponent(db().repos, {
      organizationId: owner.organization.id,
      createdBy: owner.user.id,
      name,
    });
  const list = (query: {
    nameContains?: string;
    limit?: number;
    after?: { nameKey: string; id: string };
    memberId?: string;
  }) => db().repos.components.list({ organizationId: owner.organization.id, limit: 50, ...query });
  const names = (rows: ComponentSummary[]) => rows.map((row) => row.name);

  beforeAll(async () => {
    owner = await aUserWithOrganization(db().repos);
    for (const name of ['banana', 'Apple', 'cherry_pie', '100% juice', 'cherryXpie', 'apple tart'])
      await make(name);
    // Another organization's component never shows up.
    const other = await aUserWithOrganization(db().repos);
    await aComponent(db().repos, {
      organizationId: other.organization.id,
      createdBy: other.user.id,
      name: 'apricot',
    });
  });

  it('finds a component by id and by name, case-insensitively, within its organization', async () => {
    const found = await db().repos.components.findByName(owner.organization.id, 'APPLE');
    expect(found).toMatchObject({
      name: 'Apple',
      organizationId: owner.organization.id,
      tags: [],
      variantsCount: 1,
    });
    expect(await db().repos.components.findById(found!.id)).toEqual(found);
    expect(await db().repos.components.findByName(randomUUID(), 'Apple')).toBeNull();
    expect(await db().repos.components.findById(randomUUID())).toBeNull();
    expect(await db().repos.components.findById('42')).toBeNull();
  });

  it('finds a component for a member of its organization only, in one read', async () => {
    const apple = (await db().repos.components.findByName(owner.organization.id, 'Apple'))!;
    const stranger = await aUserWithOrganization(db().repos);
    expect(await db().repos.components.findForMember(apple.id, owner.user.id)).toEqual(apple);
    expect(await db().repos.components.findForMember(apple.id, stranger.user.id)).toBeNull();
    expect(await db().repos.components.findForMember(randomUUID(), owner.user.id)).toBeNull();
    expect(await db().repos.components.findForMember('42', owner.user.id)).toBeNull();
    expect(await db().repos.components.findForMember(apple.id, 'not-a-uuid')).toBeNull();
  });

  it('lists for a member only when memberId is given', async () => {
    const stranger = await aUserWithOrganization(db().repos);
    expect(names(await list({ memberId: owner.user.id }))).toHaveLength(6);
    expect(await list({ memberId: stranger.user.id })).toEqual([]);
    expect(await list({ memberId: 'not-a-uuid' })).toEqual([]);
  });

  it('a listed row is the summary of the stored component, with the same types', async () => {
    const apple = (await db().repos.components.findByName(owner.organization.id, 'Apple'))!;
    await db().repos.components.editTags(apple.id, { kind: 'set', tags: ['fruit', 'red'] }, { now: new Date(), maxTags: 50, audit: anAuditNote() });
    const stored = (await db().repos.components.findById(apple.id))!;
    const [row] = await list({ nameContains: 'apple', limit: 1 });
    expect(row).toEqual({
      id: stored.id,
      name: 'Apple',
      description: stored.description,
      tags: ['fruit', 'red'],
      variantsCount: 1,
      updatedAt: stored.updatedAt,
    });
    expect(row!.updatedAt).toBeInstanceOf(Date);
  });

  it('lists by lower-cased name then id, only the organization’s own', async () => {
    expect(names(await list({}))).toEqual([
      '100% juice',
      'Apple',
      'apple tart',
      'banana',
      'cherry_pie',
      'cherryXpie',
    ]);
  });

  it('filters by a case-insensitive substring in which % and _ are literal', async () => {
    expect(names(await list({ nameContains: 'APP' }))).toEqual(['Apple', 'apple tart']);
    expect(names(await list({ nameContains: '%' }))).toEqual(['100% juice']);
    expect(names(await list({ nameContains: 'y_p' }))).toEqual(['cherry_pie']);
    expect(names(await list({ nameContains: '_' }))).toEqual(['cherry_pie']);
    expect(names(await list({ nameContains: 'zzz' }))).toEqual([]);
  });

  it('pages with a keyset cursor: no row skipped or repeated, even with inserts between pages', async () => {
    const seen: string[] = [];
    let after: { nameKey: string; id: string } | undefined;
    let page = 0;
    for (;;) {
      const rows = await list({ limit: 2, ...(after ? { after } : {}) });
      if (rows.length === 0) break;
      seen.push(...names(rows));
      const last = rows.at(-1)!;
      after = { nameKey: last.name.toLowerCase(), id: last.id };
      if (page++ === 0) {
        await make('aaa inserted before the cursor'); // sorts before: must not appear
        await make('zzz inserted after the cursor'); // sorts after: must appear once
      }
    }
    expect(seen).toEqual([
      '100% juice',
      'Apple',
      'apple tart',
      'banana',
      'cherry_pie',
      'cherryXpie',
      'zzz inserted after the cursor',
    ]);
  });

  it('breaks name ties by id and refuses a cursor whose id is not a UUID', async () => {
    const rows = await list({
      limit: 1,
      after: { nameKey: 'apple', id: '00000000-0000-0000-0000-000000000000' },
    });
    expect(names(rows)).toEqual(['Apple']);
    expect(await errorCode(list({ after: { nameKey: 'apple', id: 'garbage' } }))).toBe(
      'INVALID_INPUT',
    );
  });
});
