import { randomUUID } from 'node:crypto';
import { aComponent, anAuditNote, aUserWithOrganization, type Owner } from '../src/testing/index.js';
import { describeEachBackend, errorCode } from './support/backends.js';

describeEachBackend('dashboard queries', (db) => {
  let owner: Owner;
  beforeEach(async () => {
    owner = await aUserWithOrganization(db().repos);
  });
  const at = (minute: number) => new Date(Date.UTC(2026, 5, 1, 10, minute));

  it('components.listRecentlyUpdated: newest update first, name and exact tag filters, offset pages', async () => {
    const org = owner.organization.id;
    const a = await aComponent(db().repos, {
      organizationId: org,
      createdBy: owner.user.id,
      name: 'Alpha 50%',
      tags: ['ui'],
      now: at(1),
    });
    const b = await aComponent(db().repos, {
      organizationId: org,
      createdBy: owner.user.id,
      name: 'Beta',
      tags: ['UI', 'x'],
      now: at(2),
    });
    const c = await aComponent(db().repos, {
      organizationId: org,
      createdBy: owner.user.id,
      name: 'Gamma',
      now: at(3),
    });
    await aComponent(db().repos, {
      organizationId: (await aUserWithOrganization(db().repos)).organization.id,
      name: 'Elsewhere',
      tags: ['ui'],
    });
    await db().repos.components.editTags(
      a.id,
      { kind: 'change', add: ['new'], remove: [] },
      { now: at(9), maxTags: 50, audit: anAuditNote() },
    );
    const list = (query: {
      nameContains?: string;
      tag?: string;
      limit?: number;
      offset?: number;
    }) =>
      db()
        .repos.components.listRecentlyUpdated({
          organizationId: org,
          limit: 10,
          offset: 0,
          ...query,
        })
        .then((rows) => rows.map((row) => row.id));
    expect(await list({})).toEqual([a.id, c.id, b.id]);
    expect(await list({ tag: 'ui' })).toEqual([a.id]);
    expect(await list({ tag: 'UI' })).toEqual([b.id]);
    expect(await list({ nameContains: '50%' })).toEqual([a.id]);
    expect(await list({ nameContains: 'a', tag: 'x' })).toEqual([b.id]);
    expect(await list({ limit: 2, offset: 1 })).toEqual([c.id, b.id]);
    expect(
      await db().repos.components.listRecentlyUpdated({
        organizationId: 'nope',
        limit: 5,
        offset: 0,
      }),
    ).toEqual([]);
  });

  it('environments.rename and remove: unique names, only never-released environments go', async () => {
    const envs = db().repos.environments;
    const change = () => ({ now: new Date(), audit: anAuditNote() });
    const org = owner.organization.id;
    const canary = await envs.create({
      id: randomUUID(),
      organizationId: org,
      name: 'canary',
      protected: false,
      now: new Date(),
      audit: anAuditNote(),
    });
    expect(await envs.rename(canary.id, 'eu-canary', change())).toMatchObject({
      id: canary.id,
      name: 'eu-canary',
    });
    expect(await errorCode(envs.rename(canary.id, 'prod', change()))).toBe('NAME_TAKEN');
    expect(await envs.rename(randomUUID(), 'x', change())).toBeNull();

    const component = await aComponent(db().repos, {
      organizationId: org,
      createdBy: owner.user.id,
    });
    const variant = (await db().repos.variants.findLatest(component.id))!;
    const staging = owner.environments.find((e) => e.name === 'staging')!;
    await db().repos.releases.publish({
      eventId: randomUUID(),
      componentId: component.id,
      environmentId: staging.id,
      variantId: variant.id,
      releasedBy: owner.user.id,
      now: new Date(),
      audit: { eventId: randomUUID(), actorId: owner.user.id },
    });
    expect(await envs.remove(staging.id, change())).toBe('in-use');
    expect(await envs.remove(canary.id, change())).toBe('removed');
    expect(await envs.remove(canary.id, change())).toBe('missing');
    expect(await envs.remove('not-a-uuid', change())).toBe('missing');
    expect((await envs.listForOrganization(org)).map((e) => e.name)).toEqual(['prod', 'staging']);
  });

  it('flows.listForOrganization: by name, case-insensitively, with their components', async () => {
    const org = owner.organization.id;
    const component = await aComponent(db().repos, {
      organizationId: org,
      createdBy: owner.user.id,
    });
    for (const name of ['checkout', 'Account']) {
      await db().repos.flows.create({
        id: randomUUID(),
        organizationId: org,
        name,
        componentIds: [component.id],
        now: new Date(),
        audit: anAuditNote(),
      });
    }
    const flows = await db().repos.flows.listForOrganization(org);
    expect(flows.map((f) => [f.name, f.componentIds])).toEqual([
      ['Account', [component.id]],
      ['checkout', [component.id]],
    ]);
    expect(await db().repos.flows.listForOrganization(randomUUID())).toEqual([]);
  });
});
