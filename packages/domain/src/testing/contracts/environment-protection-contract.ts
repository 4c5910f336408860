/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { Role } from '../../entities/organization.js';
import type { Repositories } from '../../ports/repositories.js';

export interface EnvironmentProtectionSubject {
  readonly repos: Repositories;
  /** `userId` joins the organization with `role` (no port writes memberships besides sign-up). */
  readonly addMember: (userId: string, organizationId: string, role: Role) => Promise<void>;
}

/** The protected flag of `Environments` and `Organizations.listMembers`, for every implementation. */
export function environmentProtectionContract(subject: () => EnvironmentProtectionSubject): void {
  const anOrganization = async (repos: Repositories) => {
    const now = new Date('2026-03-04T05:06:07.000Z');
    const owner = randomUUID();
    const organization = {
      id: randomUUID(),
      name: 'Protected Co',
      environments: [
        { id: randomUUID(), name: 'staging', protected: false },
        { id: randomUUID(), name: 'prod', protected: true },
      ],
    };
    await repos.users.createWithOrganization({
      user: { id: owner, email: `${owner}@example.test`, displayName: null },
      organization,
      now,
    });
    return { owner, organization, now };
  };

  it('keeps the flag an organization is created with, and one an environment is created with', async () => {
    const { repos } = subject();
    const { organization, now } = await anOrganization(repos);
    const flags = (await repos.environments.listForOrganization(organization.id)).map((env) => [
      env.name,
      env.protected,
    ]);
    expect(flags).toEqual([
      ['prod', true],
      ['staging', false],
    ]);
    const live = await repos.environments.create({
      id: randomUUID(),
      organizationId: organization.id,
      name: 'live',
      protected: true,
      now,
      audit: { eventId: randomUUID(), actorId: randomUUID() },
    });
    expect(live).toMatchObject({ name: 'live', protected: true });
    expect(await repos.environments.findByName(organization.id, 'live')).toEqual(live);
  });

  it('sets and clears the flag; null for an unknown environment', async () => {
    const { repos } = subject();
    const change = () => ({ now: new Date(), audit: { eventId: randomUUID(), actorId: randomUUID() } });
    const { organization } = await anOrganization(repos);
    const staging = (await repos.environments.findByName(organization.id, 'staging'))!;
    expect(await repos.environments.setProtected(staging.id, true, change())).toEqual({
      ...staging,
      protected: true,
    });
    expect((await repos.environments.findByName(organization.id, 'staging'))!.protected).toBe(true);
    expect(await repos.environments.setProtected(staging.id, false, change())).toEqual(staging);
    const renamed = await repos.environments.rename(staging.id, 'qa', change());
    expect(renamed).toMatchObject({ name: 'qa', protected: false });
    expect(await repos.environments.setProtected(randomUUID(), true, change())).toBeNull();
  });

  it('lists members with the given roles, owners first then by user id, at most `limit`', async () => {
    const { repos, addMember } = subject();
    const { owner, organization, now } = await anOrganization(repos);
    const people = [];
    for (const role of ['admin', 'member', 'admin', 'admin'] as const) {
      const own = { id: randomUUID(), name: 'own', environments: [] };
      const id = randomUUID();
      await repos.users.createWithOrganization({
        user: { id, email: `${id}@example.test`, displayName: null },
        organization: own,
        now,
      });
      await addMember(id, organization.id, role);
      people.push({ id, role });
    }
    const admins = people
      .filter((p) => p.role === 'admin')
      .map((p) => p.id)
      .sort();
    const managers = await repos.organizations.listMembers(organization.id, {
      roles: ['owner', 'admin'],
      limit: 10,
    });
    expect(managers.map((m) => [m.userId, m.role])).toEqual([
      [owner, 'owner'],
      ...admins.map((id) => [id, 'admin']),
    ]);
    expect(managers.every((m) => m.organizationId === organization.id)).toBe(true);
    const two = await repos.organizations.listMembers(organization.id, {
      roles: ['owner', 'admin'],
      limit: 2,
    });
    expect(two.map((m) => m.userId)).toEqual([owner, admins[0]]);
    const members = await repos.organizations.listMembers(organization.id, {
      roles: ['member'],
      limit: 10,
    });
    expect(members.map((m) => m.userId)).toEqual(
      people.filter((p) => p.role === 'member').map((p) => p.id),
    );
    expect(
      await repos.organizations.listMembers(randomUUID(), { roles: ['owner'], limit: 10 }),
    ).toEqual([]);
  });
}
