/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { AuditEvent } from '../../entities/audit-event.js';
import type { Role } from '../../entities/organization.js';
import type { MembershipChange, PersonalOrganizationFor } from '../../ports/members.js';
import type { Repositories } from '../../ports/repositories.js';

export interface MembersSubject {
  readonly repos: Repositories;
  /** `userId` joins the organization with `role` (invitations are another port). */
  readonly addMember: (userId: string, organizationId: string, role: Role) => Promise<void>;
  /** Test back door: makes `organizationId` the user's default (no port sets it). */
  readonly setDefault: (userId: string, organizationId: string) => Promise<void>;
  /** The organization's audit trail, oldest first. */
  readonly auditEvents: (organizationId: string) => Promise<AuditEvent[]>;
}

const personal: PersonalOrganizationFor = (user) => ({
  id: randomUUID(),
  name: `${user.email} personal`,
  environments: [{ id: randomUUID(), name: 'staging', protected: false }],
});

/** `Members` and the organization writes that go with it (rename, delete), for every implementation. */
export function membersContract(subject: () => MembersSubject): void {
  const now = new Date('2026-05-06T07:08:09.000Z');
  const aUser = async (repos: Repositories, orgName = 'own') => {
    const id = randomUUID();
    const organization = { id: randomUUID(), name: orgName, environments: [] };
    await repos.users.createWithOrganization({
      user: { id, email: `${id}@example.test`, displayName: null },
      organization,
      now,
    });
    return id;
  };
  /** An owner's organization with one person per role in `roles`. */
  const aTeam = async (roles: Role[]) => {
    const { repos, addMember } = subject();
    const owner = await aUser(repos);
    const orgId = randomUUID();
    await repos.organizations.create({
      organization: { id: orgId, name: 'Team', environments: [] },
      ownerId: owner,
      now,
    });
    const people: string[] = [];
    for (const role of roles) {
      const id = await aUser(repos);
      await addMember(id, orgId, role);
      people.push(id);
    }
    return { repos, owner, orgId, people };
  };
  const change = (repos: Repositories, orgId: string, actorId: string, what: MembershipChange) =>
    repos.members.change({
      organizationId: orgId,
      actorId,
      change: what,
      personalOrganizationFor: personal,
      audit: { eventId: randomUUID(), actorId },
      now,
    });
  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'ok',
      (error: { code?: string }) => error.code ?? 'not a coded error',
    );
  const roles = async (repos: Repositories, orgId: string) =>
    (await repos.members.list(orgId)).map((m) => m.role);

  it('lists members owners first with their email and when they joined; nothing for an unknown organization', async () => {
    const { repos, owner, orgId, people } = await aTeam(['viewer', 'admin']);
    const members = await repos.members.list(orgId);
    expect(members.map((m) => [m.userId, m.role])).toEqual([
      [owner, 'owner'],
      [people[1], 'admin'],
      [people[0], 'viewer'],
    ]);
    expect(members[0]).toMatchObject({
      organizationId: orgId,
      email: `${owner}@example.test`,
      displayName: null,
      joinedAt: now,
    });
    expect(await repos.members.list(randomUUID())).toEqual([]);
  });

  it("changes a role with its audit row; refuses a stale `from`, one's own role, and a non-member", async () => {
    const { repos, owner, orgId, people } = await aTeam(['member', 'admin']);
    const [member, admin] = people as [string, string];
    const result = await change(repos, orgId, admin, {
      kind: 'role',
      userId: member,
      from: 'member',
      to: 'viewer',
    });
    expect(result).toEqual({ userId: member, before: 'member', after: 'viewer' });
    expect(
      await codeOf(
        change(repos, orgId, admin, { kind: 'role', userId: member, from: 'member', to: 'admin' }),
      ),
    ).toBe('CONFLICT');
    expect(
      await codeOf(
        change(repos, orgId, admin, { kind: 'role', userId: admin, from: 'admin', to: 'member' }),
      ),
    ).toBe('FORBIDDEN');
    expect(
      await codeOf(
        change(repos, orgId, admin, { kind: 'role', userId: owner, from: 'owner', to: 'admin' }),
      ),
    ).toBe('FORBIDDEN');
    expect(await codeOf(change(repos, orgId, randomUUID(), { kind: 'leave' }))).toBe('NOT_FOUND');
    expect(
      await codeOf(change(repos, orgId, admin, { kind: 'remove', userId: randomUUID() })),
    ).toBe('NOT_FOUND');
    expect(await roles(repos, orgId)).toEqual(['owner', 'admin', 'viewer']);
    const trail = await subject().auditEvents(orgId);
    expect(trail.map((e) => [e.kind, e.actorId, e.subjectUserId, e.details])).toEqual([
      ['member.role_changed', admin, member, { before: 'member', after: 'viewer' }],
    ]);
  });

  it('never loses the last owner: it cannot leave, and two owners demoting each other at once leave one owner', async () => {
    const { repos, owner, orgId } = await aTeam([]);
    expect(await codeOf(change(repos, orgId, owner, { kind: 'leave' }))).toBe('LAST_OWNER');
    const second = await aUser(repos);
    await subject().addMember(second, orgId, 'owner');
    const outcomes = await Promise.all([
      codeOf(
        change(repos, orgId, owner, { kind: 'role', userId: second, from: 'owner', to: 'admin' }),
      ),
      codeOf(
        change(repos, orgId, second, { kind: 'role', userId: owner, from: 'owner', to: 'admin' }),
      ),
    ]);
    expect(outcomes.sort()).toEqual(['FORBIDDEN', 'ok']);
    expect(await roles(repos, orgId)).toEqual(['owner', 'admin']);
  });

  it('two admins changing one member at once: one wins, the other gets CONFLICT', async () => {
    const { repos, orgId, people } = await aTeam(['admin', 'admin', 'member']);
    const [a, b, member] = people as [string, string, string];
    const outcomes = await Promise.all([
      codeOf(
        change(repos, orgId, a, { kind: 'role', userId: member, from: 'member', to: 'viewer' }),
      ),
      codeOf(
        change(repos, orgId, b, { kind: 'role', userId: member, from: 'member', to: 'admin' }),
      ),
    ]);
    expect(outcomes.sort()).toEqual(['CONFLICT', 'ok']);
    expect((await subject().auditEvents(orgId)).length).toBe(1);
  });

  it('transfers ownership (the previous owner becomes admin); only an owner can', async () => {
    const { repos, owner, orgId, people } = await aTeam(['member', 'admin']);
    const [member, admin] = people as [string, string];
    expect(await codeOf(change(repos, orgId, admin, { kind: 'transfer', userId: member }))).toBe(
      'FORBIDDEN',
    );
    expect(await change(repos, orgId, owner, { kind: 'transfer', userId: member })).toEqual({
      userId: member,
      before: 'member',
      after: 'owner',
    });
    const members = await repos.members.list(orgId);
    expect(members.map((m) => [m.userId, m.role])).toEqual([
      [member, 'owner'],
      ...[
        [owner, 'admin'],
        [admin, 'admin'],
      ].sort((x, y) => `${x[0]}@`.localeCompare(`${y[0]}@`)),
    ]);
    expect((await subject().auditEvents(orgId)).at(-1)).toMatchObject({
      kind: 'member.ownership_transferred',
      actorId: owner,
      subjectUserId: member,
    });
  });

  it('moves the default of someone who leaves: their first other organization by name', async () => {
    const { repos, orgId, people } = await aTeam(['member']);
    const [member] = people as [string];
    const other = await aTeam([]);
    await subject().addMember(member, other.orgId, 'viewer');
    await other.repos.organizations.rename({
      organizationId: other.orgId,
      name: 'Aaa first',
      audit: { eventId: randomUUID(), actorId: other.owner },
      now,
    });
    await subject().setDefault(member, orgId);
    expect(await change(repos, orgId, member, { kind: 'leave' })).toEqual({
      userId: member,
      before: 'member',
      after: null,
    });
    expect((await repos.users.findById(member))!.defaultOrganizationId).toBe(other.orgId);
    expect((await subject().auditEvents(orgId)).at(-1)).toMatchObject({
      kind: 'member.left',
      actorId: member,
      subjectUserId: member,
      details: { before: 'member', after: null },
    });
  });

  it('gives someone removed from their last organization a new personal one as default', async () => {
    const { repos, owner, orgId } = await aTeam([]);
    const lonely = await aUser(repos);
    const lonelyOwn = (await repos.users.findById(lonely))!.defaultOrganizationId;
    await subject().addMember(lonely, orgId, 'member');
    // Deleting their own organization moves their default to the team, their only other one.
    await repos.organizations.delete({
      organizationId: lonelyOwn,
      actorId: lonely,
      confirmName: 'own',
      personalOrganizationFor: personal,
      now,
    });
    expect((await repos.users.findById(lonely))!.defaultOrganizationId).toBe(orgId);
    await change(repos, orgId, owner, { kind: 'remove', userId: lonely });
    const after = (await repos.users.findById(lonely))!;
    const orgs = await repos.organizations.listForUser(lonely);
    expect(orgs.map((o) => [o.id, o.name, o.role, o.isDefault])).toEqual([
      [after.defaultOrganizationId, `${lonely}@example.test personal`, 'owner', true],
    ]);
    expect((await subject().auditEvents(orgId)).at(-1)).toMatchObject({
      kind: 'member.removed',
      actorId: owner,
      subjectUserId: lonely,
      details: { before: 'member', after: null },
    });
  });

  it('renames with an audit row; deletes only for an owner who types the name, moving defaults and returning object keys', async () => {
    const { repos, owner, orgId, people } = await aTeam(['admin']);
    const [admin] = people as [string];
    const renamed = await repos.organizations.rename({
      organizationId: orgId,
      name: 'Renamed',
      audit: { eventId: randomUUID(), actorId: owner },
      now,
    });
    expect(renamed).toMatchObject({ id: orgId, name: 'Renamed' });
    expect((await subject().auditEvents(orgId)).at(-1)).toMatchObject({
      kind: 'organization.renamed',
      details: { before: 'Team', after: 'Renamed' },
    });
    expect(
      await repos.organizations.rename({
        organizationId: randomUUID(),
        name: 'x',
        audit: { eventId: randomUUID(), actorId: owner },
        now,
      }),
    ).toBeNull();

    const del = (actorId: string, confirmName: string, organizationId: string = orgId) =>
      repos.organizations.delete({
        organizationId,
        actorId,
        confirmName,
        personalOrganizationFor: personal,
        now,
      });
    expect(await codeOf(del(admin, 'Renamed'))).toBe('FORBIDDEN');
    expect(await codeOf(del(owner, 'Team'))).toBe('INVALID_INPUT');
    expect(await codeOf(del(owner, 'Renamed', randomUUID()))).toBe('NOT_FOUND');
    // The owner's default is their own organization: deleting it moves the default to the team.
    const ownOrg = (await repos.users.findById(owner))!.defaultOrganizationId;
    expect(await del(owner, 'own', ownOrg)).toEqual({ objectKeys: [] });
    expect((await repos.users.findById(owner))!.defaultOrganizationId).toBe(orgId);
    expect(await repos.organizations.findById(ownOrg)).toBeNull();
    // Deleting the team now leaves the owner with nothing: a personal organization becomes the default.
    await del(owner, 'Renamed');
    expect(await repos.organizations.findById(orgId)).toBeNull();
    expect(await repos.members.list(orgId)).toEqual([]);
    expect(await subject().auditEvents(orgId)).toEqual([]);
    const orgs = await repos.organizations.listForUser(owner);
    expect(orgs.map((o) => [o.name, o.role, o.isDefault])).toEqual([
      [`${owner}@example.test personal`, 'owner', true],
    ]);
    expect((await repos.organizations.listForUser(admin)).map((o) => o.isDefault)).toEqual([true]);
  });
}
