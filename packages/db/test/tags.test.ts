import { randomUUID } from 'node:crypto';
import { aComponent, anAuditNote, aUserWithOrganization, type Owner } from '../src/testing/index.js';
import { describeEachBackend, errorCode } from './support/backends.js';

const MAX = 50;

describeEachBackend('components: tag edits', (db) => {
  let owner: Owner;
  const component = (tags: string[]) =>
    aComponent(db().repos, {
      organizationId: owner.organization.id,
      createdBy: owner.user.id,
      tags,
    });
  const edit = (id: string, change: { add?: string[]; remove?: string[] }, now = new Date()) =>
    db().repos.components.editTags(
      id,
      { kind: 'change', add: change.add ?? [], remove: change.remove ?? [] },
      { now, maxTags: MAX, audit: anAuditNote() },
    );

  beforeAll(async () => {
    owner = await aUserWithOrganization(db().repos);
  });

  it('add appends new tags after the existing ones, ignoring those present', async () => {
    const { id } = await component(['react', 'ui']);
    const updated = await edit(id, { add: ['form', 'ui', 'React'] });
    expect(updated?.tags).toEqual(['react', 'ui', 'form', 'React']);
  });

  it('remove drops tags, ignoring absent ones; add+remove adds then removes', async () => {
    const { id } = await component(['a', 'b', 'c']);
    expect((await edit(id, { remove: ['b', 'zzz'] }))?.tags).toEqual(['a', 'c']);
    expect((await edit(id, { add: ['d'], remove: ['a'] }))?.tags).toEqual(['c', 'd']);
  });

  it('set replaces the list and [] clears it; moves updatedAt; adds no variant', async () => {
    const created = await component(['old']);
    const now = new Date(created.updatedAt.getTime() + 60_000);
    const set = await db().repos.components.editTags(
      created.id,
      { kind: 'set', tags: ['x', 'y'] },
      { now, maxTags: MAX, audit: anAuditNote() },
    );
    expect(set).toMatchObject({ tags: ['x', 'y'], updatedAt: now, variantsCount: 1 });
    const cleared = await db().repos.components.editTags(
      created.id,
      { kind: 'set', tags: [] },
      { now, maxTags: MAX, audit: anAuditNote() },
    );
    expect(cleared?.tags).toEqual([]);
    expect(await db().repos.variants.listForComponent(created.id, { limit: 10 })).toHaveLength(1);
  });

  it('answers null for an unknown component', async () => {
    expect(await edit(randomUUID(), { add: ['a'] })).toBeNull();
    expect(await edit('nope', { add: ['a'] })).toBeNull();
  });

  it('refuses an edit that would exceed maxTags with TOO_MANY_TAGS, changing nothing', async () => {
    const full = Array.from({ length: MAX - 1 }, (_, i) => `t${i}`);
    const created = await component(full);
    const later = new Date(created.updatedAt.getTime() + 1000);
    expect(await errorCode(edit(created.id, { add: ['one', 'two'] }, later))).toBe('TOO_MANY_TAGS');
    const set = db().repos.components.editTags(
      created.id,
      { kind: 'set', tags: [...full, 'a', 'b'] },
      { now: later, maxTags: MAX, audit: anAuditNote() },
    );
    expect(await errorCode(set)).toBe('TOO_MANY_TAGS');
    expect(await db().repos.components.findById(created.id)).toEqual(created);
    expect((await edit(created.id, { add: ['one'] }))?.tags).toHaveLength(MAX);
  });

  it('loses no tag under 20 concurrent adds', async () => {
    const { id } = await component(['base']);
    const tags = Array.from({ length: 20 }, (_, i) => `tag-${i}`);
    await Promise.all(tags.map((tag) => edit(id, { add: [tag] })));
    const stored = (await db().repos.components.findById(id))!.tags;
    expect(stored[0]).toBe('base');
    expect([...stored].sort()).toEqual(['base', ...tags].sort());
  });

  it('concurrent adds and removes of different tags all take effect', async () => {
    const { id } = await component(['keep', 'drop-1', 'drop-2']);
    await Promise.all([
      edit(id, { remove: ['drop-1'] }),
      edit(id, { add: ['new-1'] }),
      edit(id, { remove: ['drop-2'] }),
      edit(id, { add: ['new-2'] }),
    ]);
    const stored = (await db().repos.components.findById(id))!.tags;
    expect([...stored].sort()).toEqual(['keep', 'new-1', 'new-2']);
  });
});
