import { randomUUID } from 'node:crypto';
import { anAuditNote, aUserWithOrganization } from '../src/testing/index.js';
import { describeEachBackend, errorCode } from './support/backends.js';

describeEachBackend('organizations and environments', (db) => {
  it('creates an organization with its environments and an owner membership', async () => {
    const { user } = await aUserWithOrganization(db().repos);
    const now = new Date('2026-02-03T04:05:06.789Z');
    const organization = {
      id: randomUUID(),
      name: 'Acme',
      environments: [{ id: randomUUID(), name: 'qa', protected: false }],
    };
    const created = await db().repos.organizations.create({ organization, ownerId: user.id, now });

    expect(created).toEqual({ id: organization.id, name: 'Acme', createdAt: now, privatePreviews: false });
    expect(await db().repos.organizations.findById(organization.id)).toEqual(created);
    expect(await db().repos.organizations.findMembership(user.id, organization.id)).toEqual({
      userId: user.id,
      organizationId: organization.id,
      role: 'owner',
    });
    const envs = await db().repos.environments.listForOrganization(organization.id);
    expect(envs).toEqual([
      {
        id: organization.environments[0]!.id,
        organizationId: organization.id,
        name: 'qa',
        protected: false,
        createdAt: now,
      },
    ]);
  });

  it("lists a user's organizations by name then id, marking the default", async () => {
    const { user, organization: personal } = await aUserWithOrganization(db().repos, {
      organizationName: 'Mid',
    });
    const now = new Date();
    const ids = [randomUUID(), randomUUID()].sort();
    for (const id of ids) {
      await db().repos.organizations.create({
        organization: { id, name: 'Alpha', environments: [] },
        ownerId: user.id,
        now,
      });
    }
    await db().repos.organizations.create({
      organization: { id: randomUUID(), name: 'Zulu', environments: [] },
      ownerId: user.id,
      now,
    });

    const list = await db().repos.organizations.listForUser(user.id);
    expect(list.map((org) => [org.name, org.isDefault])).toEqual([
      ['Alpha', false],
      ['Alpha', false],
      ['Mid', true],
      ['Zulu', false],
    ]);
    expect(list.slice(0, 2).map((org) => org.id)).toEqual(ids);
    expect(list.find((org) => org.id === personal.id)?.role).toBe('owner');
  });

  it('answers null / empty for strangers and unknown ids', async () => {
    const { organization } = await aUserWithOrganization(db().repos);
    const { user: stranger } = await aUserWithOrganization(db().repos);
    expect(await db().repos.organizations.findMembership(stranger.id, organization.id)).toBeNull();
    expect(await db().repos.organizations.findById(randomUUID())).toBeNull();
    expect(await db().repos.organizations.findById('nope')).toBeNull();
    expect(await db().repos.organizations.listForUser(randomUUID())).toEqual([]);
  });

  it('environments: ordered by name, found by exact name, created, NAME_TAKEN when taken', async () => {
    const { organization } = await aUserWithOrganization(db().repos);
    const now = new Date();
    const canary = await db().repos.environments.create({
      id: randomUUID(),
      organizationId: organization.id,
      name: 'canary',
      protected: false,
      now,
      audit: anAuditNote(),
    });
    expect(canary).toMatchObject({
      organizationId: organization.id,
      name: 'canary',
      createdAt: now,
    });

    const names = (await db().repos.environments.listForOrganization(organization.id)).map(
      (env) => env.name,
    );
    expect(names).toEqual(['canary', 'prod', 'staging']);
    expect(await db().repos.environments.findByName(organization.id, 'canary')).toEqual(canary);
    expect(await db().repos.environments.findByName(organization.id, 'Canary')).toBeNull();

    const again = db().repos.environments.create({
      id: randomUUID(),
      organizationId: organization.id,
      name: 'prod',
      protected: true,
      now,
      audit: anAuditNote(),
    });
    expect(await errorCode(again)).toBe('NAME_TAKEN');
    await expect(again).rejects.toThrow(/already has an environment named "prod"/);
  });
});
