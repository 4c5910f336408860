/// <reference types="jest" />
import { randomUUID } from 'node:crypto';
import type { AuditEvent } from '../../entities/audit-event.js';
import type { InvitableRole } from '../../entities/invitation.js';
import type { Role } from '../../entities/organization.js';
import type { NewInvitation } from '../../ports/invitations.js';
import type { Repositories } from '../../ports/repositories.js';
import { emailKey } from '../../rules/invitations.js';

export interface InvitationsSubject {
  readonly repos: Repositories;
  /** The organization's audit rows, oldest first. */
  readonly auditOf: (
    organizationId: string,
  ) => Promise<Pick<AuditEvent, 'kind' | 'actorId' | 'subjectUserId' | 'details'>[]>;
  /** Adds a membership the way the Members page will (not through an invitation). */
  readonly addMember: (userId: string, organizationId: string, role: Role) => Promise<void>;
}

const T0 = new Date('2026-03-01T00:00:00.000Z');
const DAY = 24 * 3600 * 1000;
const at = (days: number) => new Date(T0.getTime() + days * DAY);

/** The `Invitations` port's contract, for every implementation. */
export function invitationsContract(subject: () => InvitationsSubject): void {
  let counter = 0;
  const aUser = async (email = `person-${++counter}-${randomUUID().slice(0, 8)}@example.test`) => {
    const { repos } = subject();
    const organizationId = randomUUID();
    const user = await repos.users.createWithOrganization({
      user: { id: randomUUID(), email, displayName: null },
      organization: { id: organizationId, name: `org ${counter}`, environments: [] },
      now: T0,
    });
    return { userId: user.id, email: user.email, organizationId };
  };
  const anInvitation = (
    owner: { userId: string; organizationId: string },
    email: string,
    overrides: Partial<NewInvitation> = {},
  ): NewInvitation => ({
    id: randomUUID(),
    organizationId: owner.organizationId,
    email,
    role: 'member',
    tokenHash: `hash-${randomUUID()}`,
    invitedBy: owner.userId,
    createdAt: at(0),
    expiresAt: at(7),
    ...overrides,
  });
  const note = (actorId: string) => ({ eventId: randomUUID(), actorId });
  const created = async (invitation: NewInvitation) => {
    const result = await subject().repos.invitations.create(invitation, note(invitation.invitedBy));
    if (result === 'already-member') throw new Error('expected the invitation to be created');
    return result;
  };
  const accept = (
    invitation: NewInvitation,
    user: { userId: string; email: string },
    now = at(1),
  ) =>
    subject().repos.invitations.accept(
      { tokenHash: invitation.tokenHash, userId: user.userId, emailKey: emailKey(user.email), now },
      note(user.userId),
    );

  it('creates, lists newest first within the organization, finds by token hash, and records the creation', async () => {
    const { repos, auditOf } = subject();
    const owner = await aUser();
    const other = await aUser();
    const first = anInvitation(owner, 'First@Example.test', { role: 'viewer' });
    const second = anInvitation(owner, 'second@example.test', {
      role: 'admin',
      createdAt: at(0.5),
    });
    expect((await created(first)).invitation).toEqual({
      id: first.id,
      organizationId: owner.organizationId,
      email: 'First@Example.test',
      role: 'viewer',
      invitedBy: owner.userId,
      createdAt: first.createdAt,
      expiresAt: first.expiresAt,
      acceptedAt: null,
      acceptedBy: null,
      revokedAt: null,
      revokedBy: null,
    });
    await created(second);
    expect(
      (await repos.invitations.listForOrganization(owner.organizationId, { limit: 10 })).map(
        (i) => i.id,
      ),
    ).toEqual([second.id, first.id]);
    expect(
      await repos.invitations.listForOrganization(owner.organizationId, { limit: 1 }),
    ).toHaveLength(1);
    expect(
      await repos.invitations.listForOrganization(other.organizationId, { limit: 10 }),
    ).toEqual([]);
    expect((await repos.invitations.findByTokenHash(first.tokenHash))?.id).toBe(first.id);
    expect(await repos.invitations.findByTokenHash('hash-of-nothing')).toBeNull();
    expect(await auditOf(owner.organizationId)).toEqual([
      {
        kind: 'invitation.created',
        actorId: owner.userId,
        subjectUserId: null,
        details: {
          invitationId: first.id,
          email: 'First@Example.test',
          role: 'viewer',
          replaced: [],
        },
      },
      {
        kind: 'invitation.created',
        actorId: owner.userId,
        subjectUserId: null,
        details: {
          invitationId: second.id,
          email: 'second@example.test',
          role: 'admin',
          replaced: [],
        },
      },
    ]);
  });

  it('a new invitation for the same email (any case) replaces the open one; a member is refused', async () => {
    const { repos } = subject();
    const owner = await aUser();
    const old = anInvitation(owner, 'sam@example.test');
    await created(old);
    const renewed = anInvitation(owner, 'SAM@example.test', { role: 'admin', createdAt: at(1) });
    expect((await created(renewed)).replaced).toEqual([old.id]);
    const stored = await repos.invitations.findByTokenHash(old.tokenHash);
    expect({ revokedAt: stored?.revokedAt, revokedBy: stored?.revokedBy }).toEqual({
      revokedAt: at(1),
      revokedBy: owner.userId,
    });
    const member = await aUser();
    const invitation = anInvitation(owner, member.email);
    await created(invitation);
    expect((await accept(invitation, member)).status).toBe('accepted');
    expect(
      await repos.invitations.create(
        anInvitation(owner, member.email.toUpperCase()),
        note(owner.userId),
      ),
    ).toBe('already-member');
  });

  it('parallel invitations of one email leave exactly one open', async () => {
    const { repos } = subject();
    const owner = await aUser();
    const invitations = Array.from({ length: 40 }, () => anInvitation(owner, 'busy@example.test'));
    await Promise.all(invitations.map((i) => repos.invitations.create(i, note(owner.userId))));
    const open = (
      await repos.invitations.listForOrganization(owner.organizationId, { limit: 50 })
    ).filter((i) => i.revokedAt === null);
    expect(open).toHaveLength(1);
  });

  it('revokes once, within the organization only; an accepted invitation stays accepted', async () => {
    const { repos, auditOf } = subject();
    const owner = await aUser();
    const other = await aUser();
    const invitation = anInvitation(owner, 'revoke-me@example.test');
    await created(invitation);
    const revoke = (organizationId: string, invitationId: string, now: Date) =>
      repos.invitations.revoke({ organizationId, invitationId, now }, note(owner.userId));
    expect(await revoke(other.organizationId, invitation.id, at(1))).toBeNull();
    expect(await revoke(owner.organizationId, randomUUID(), at(1))).toBeNull();
    expect((await revoke(owner.organizationId, invitation.id, at(1)))?.revokedAt).toEqual(at(1));
    expect((await revoke(owner.organizationId, invitation.id, at(2)))?.revokedAt).toEqual(at(1));
    expect((await auditOf(owner.organizationId)).map((e) => e.kind)).toEqual([
      'invitation.created',
      'invitation.revoked',
    ]);

    const invitee = await aUser();
    const used = anInvitation(owner, invitee.email);
    await created(used);
    await accept(used, invitee);
    const after = await revoke(owner.organizationId, used.id, at(2));
    expect({ acceptedBy: after?.acceptedBy, revokedAt: after?.revokedAt }).toEqual({
      acceptedBy: invitee.userId,
      revokedAt: null,
    });
  });

  it('accepts once, for the invited email only, joining with the role and recording it', async () => {
    const { repos, auditOf } = subject();
    const owner = await aUser();
    const invitee = await aUser();
    const stranger = await aUser();
    const invitation = anInvitation(owner, invitee.email.toUpperCase(), {
      role: 'viewer' as InvitableRole,
    });
    await created(invitation);
    expect(await accept({ ...invitation, tokenHash: 'hash-of-nothing' }, invitee)).toEqual({
      status: 'not-found',
    });
    expect((await accept(invitation, stranger)).status).toBe('wrong-account');
    expect(
      await repos.organizations.findMembership(stranger.userId, owner.organizationId),
    ).toBeNull();
    const outcome = await accept(invitation, invitee, at(2));
    expect(outcome.status).toBe('accepted');
    expect(
      outcome.status === 'accepted' && {
        acceptedAt: outcome.invitation.acceptedAt,
        acceptedBy: outcome.invitation.acceptedBy,
      },
    ).toEqual({ acceptedAt: at(2), acceptedBy: invitee.userId });
    expect(await repos.organizations.findMembership(invitee.userId, owner.organizationId)).toEqual({
      userId: invitee.userId,
      organizationId: owner.organizationId,
      role: 'viewer',
    });
    expect((await accept(invitation, invitee)).status).toBe('used');
    expect((await auditOf(owner.organizationId)).at(-1)).toEqual({
      kind: 'invitation.accepted',
      actorId: invitee.userId,
      subjectUserId: invitee.userId,
      details: { invitationId: invitation.id, email: invitation.email, role: 'viewer' },
    });
  });

  it("refuses revoked and expired invitations, and leaves a member's invitation unused", async () => {
    const { repos, auditOf } = subject();
    const owner = await aUser();
    const invitee = await aUser();
    const revoked = anInvitation(owner, invitee.email);
    await created(revoked);
    await repos.invitations.revoke(
      { organizationId: owner.organizationId, invitationId: revoked.id, now: at(1) },
      note(owner.userId),
    );
    expect((await accept(revoked, invitee)).status).toBe('revoked');

    const expiring = anInvitation(owner, invitee.email, { createdAt: at(1) });
    await created(expiring);
    expect((await accept(expiring, invitee, at(7))).status).toBe('expired');
    expect((await accept(expiring, invitee, at(7.5))).status).toBe('expired');

    // Someone who became a member after being invited: nothing changes (the role stays, the link stays unused).
    const late = anInvitation(owner, invitee.email, { createdAt: at(2) });
    await created(late);
    await subject().addMember(invitee.userId, owner.organizationId, 'viewer');
    const rows = (await auditOf(owner.organizationId)).length;
    const outcome = await accept(late, invitee, at(3));
    expect(
      outcome.status === 'already-member' && {
        role: outcome.role,
        acceptedAt: outcome.invitation.acceptedAt,
      },
    ).toEqual({ role: 'viewer', acceptedAt: null });
    expect((await repos.invitations.findByTokenHash(late.tokenHash))?.acceptedAt).toBeNull();
    expect(
      await repos.organizations.findMembership(invitee.userId, owner.organizationId),
    ).toMatchObject({ role: 'viewer' });
    expect(await auditOf(owner.organizationId)).toHaveLength(rows);
  });

  it('of parallel acceptances of one invitation exactly one joins; the others are told it is used', async () => {
    const { repos, auditOf } = subject();
    const owner = await aUser();
    const invitee = await aUser();
    const invitation = anInvitation(owner, invitee.email, { role: 'admin' });
    await created(invitation);
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, () => accept(invitation, invitee)),
    );
    expect(outcomes.map((o) => o.status).sort()).toEqual([
      'accepted',
      ...Array.from({ length: 39 }, () => 'used'),
    ]);
    expect(
      (
        await repos.organizations.listMembers(owner.organizationId, { roles: ['admin'], limit: 10 })
      ).map((m) => m.userId),
    ).toEqual([invitee.userId]);
    expect(
      (await auditOf(owner.organizationId)).filter((e) => e.kind === 'invitation.accepted'),
    ).toHaveLength(1);
  });
}
