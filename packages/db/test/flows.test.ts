import { randomUUID } from 'node:crypto';
import { aComponent, anAuditNote, aUserWithOrganization, type Owner } from '../src/testing/index.js';
import { describeEachBackend, errorCode } from './support/backends.js';

describeEachBackend('flows', (db) => {
  let owner: Owner;
  let ids: string[];

  beforeAll(async () => {
    owner = await aUserWithOrganization(db().repos);
    const components = [];
    for (const name of ['one', 'two', 'three']) {
      components.push(
        await aComponent(db().repos, {
          organizationId: owner.organization.id,
          createdBy: owner.user.id,
          name,
        }),
      );
    }
    ids = components.map((c) => c.id);
  });
  const create = (componentIds: string[], now = new Date()) =>
    db().repos.flows.create({
      id: randomUUID(),
      organizationId: owner.organization.id,
      name: 'Checkout',
      componentIds,
      now,
      audit: anAuditNote(),
    });

  it('creates a draft flow keeping the component order', async () => {
    const now = new Date('2026-06-01T00:00:00.123Z');
    const flow = await create([ids[2]!, ids[0]!], now);
    expect(flow).toMatchObject({
      name: 'Checkout',
      status: 'draft',
      componentIds: [ids[2], ids[0]],
      createdAt: now,
      updatedAt: now,
    });
    expect(await db().repos.flows.findById(flow.id)).toEqual(flow);
    expect(await db().repos.flows.findById(randomUUID())).toBeNull();
    expect(await db().repos.flows.findById('nope')).toBeNull();
  });

  it('replaces the ordered list and changes the status', async () => {
    const flow = await create([ids[0]!]);
    const later = new Date(flow.updatedAt.getTime() + 1000);
    const reordered = await db().repos.flows.setComponents(
      flow.id,
      [ids[1]!, ids[2]!, ids[0]!],
      later,
      anAuditNote(),
    );
    expect(reordered).toMatchObject({ componentIds: [ids[1], ids[2], ids[0]], updatedAt: later });
    expect((await db().repos.flows.setComponents(flow.id, [], later, anAuditNote()))?.componentIds).toEqual([]);
    const published = await db().repos.flows.setStatus(flow.id, 'published', later, anAuditNote());
    expect(published).toMatchObject({ status: 'published', updatedAt: later });
    expect(await db().repos.flows.setStatus(randomUUID(), 'draft', later, anAuditNote())).toBeNull();
    expect(await db().repos.flows.setComponents(randomUUID(), [], later, anAuditNote())).toBeNull();
  });

  it('concurrent replacements of one flow all succeed and the last one wins whole', async () => {
    const flow = await create([]);
    const lists = [[ids[0]!], [ids[1]!, ids[2]!], [ids[2]!, ids[1]!, ids[0]!], [ids[0]!, ids[1]!]];
    await Promise.all(
      lists.map((list) => db().repos.flows.setComponents(flow.id, list, new Date(), anAuditNote())),
    );
    const stored = await db().repos.flows.findById(flow.id);
    expect(lists).toContainEqual(stored!.componentIds);
  });

  it('concurrent edits of one flow each apply to the list the previous one left: none is lost', async () => {
    const flow = await create([ids[0]!]);
    const appended = (id: string) => (current: readonly string[]) => [...current, id];
    await Promise.all([
      db().repos.flows.editComponents(flow.id, appended(ids[1]!), new Date(), anAuditNote()),
      db().repos.flows.editComponents(flow.id, appended(ids[2]!), new Date(), anAuditNote()),
      db().repos.flows.editComponents(
        flow.id,
        (current) => current.filter((id) => id !== ids[0]),
        new Date(),
        anAuditNote(),
      ),
    ]);
    const stored = (await db().repos.flows.findById(flow.id))!.componentIds;
    expect([...stored].sort()).toEqual([ids[1]!, ids[2]!].sort());
  });

  it('an edit that throws changes nothing, and an edit of an unknown flow is null', async () => {
    const flow = await create([ids[0]!, ids[1]!]);
    const refused = db().repos.flows.editComponents(
      flow.id,
      () => {
        throw new Error('refused by the edit');
      },
      new Date(Date.now() + 60_000),
      anAuditNote(),
    );
    await expect(refused).rejects.toThrow('refused by the edit');
    expect(await db().repos.flows.findById(flow.id)).toEqual(flow);
    expect(
      await db().repos.flows.editComponents(randomUUID(), (current) => current, new Date(), anAuditNote()),
    ).toBeNull();
  });

  it('answers NOT_FOUND for a component that does not exist, writing nothing', async () => {
    const flow = await create([ids[0]!]);
    expect(
      await errorCode(db().repos.flows.setComponents(flow.id, [ids[1]!, randomUUID()], new Date(), anAuditNote())),
    ).toBe('NOT_FOUND');
    expect(await db().repos.flows.findById(flow.id)).toEqual(flow);
    expect(await errorCode(create([randomUUID()]))).toBe('NOT_FOUND');
  });
});
