import { AuditKind } from '../entities/audit-event.js';
import type { Invitation } from '../entities/invitation.js';
import type { Invitations } from '../ports/invitations.js';
import { acceptRefusal, emailKey, invitationAuditEvent } from '../rules/invitations.js';
import type { InMemoryState, StoredInvitation } from './in-memory-state.js';

const withoutHash = ({ tokenHash: _hash, ...invitation }: StoredInvitation): Invitation =>
  invitation;


/** Each method runs without an await: as atomic as the port demands. */
export function inMemoryInvitations(state: InMemoryState): Invitations {
  const memberByEmail = (organizationId: string, key: string) =>
    state.memberships.find(
      (m) =>
        m.organizationId === organizationId &&
        state.users.some((u) => u.id === m.userId && emailKey(u.email) === key),
    );
  return {
    async create(invitation, audit) {
      const key = emailKey(invitation.email);
      if (memberByEmail(invitation.organizationId, key)) return 'already-member';
      const replaced: string[] = [];
      state.invitations = state.invitations.map((i) => {
        if (
          i.organizationId !== invitation.organizationId ||
          emailKey(i.email) !== key ||
          i.acceptedAt !== null ||
          i.revokedAt !== null
        )
          return i;
        replaced.push(i.id);
        return { ...i, revokedAt: invitation.createdAt, revokedBy: invitation.invitedBy };
      });
      const stored: StoredInvitation = {
        ...invitation,
        acceptedAt: null,
        acceptedBy: null,
        revokedAt: null,
        revokedBy: null,
      };
      state.invitations.push(stored);
      state.recordAudit(
        invitationAuditEvent(stored, audit, AuditKind.InvitationCreated, invitation.createdAt, {
          details: { replaced },
        }),
      );
      return { invitation: withoutHash(stored), replaced };
    },
    listForOrganization: async (organizationId, { limit }) =>
      state.invitations
        .filter((i) => i.organizationId === organizationId)
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id.localeCompare(a.id))
        .slice(0, limit)
        .map(withoutHash),
    async revoke({ organizationId, invitationId, now }, audit) {
      const index = state.invitations.findIndex(
        (i) => i.id === invitationId && i.organizationId === organizationId,
      );
      if (index === -1) return null;
      const invitation = state.invitations[index]!;
      if (invitation.acceptedAt !== null || invitation.revokedAt !== null)
        return withoutHash(invitation);
      const revoked = { ...invitation, revokedAt: now, revokedBy: audit.actorId };
      state.invitations[index] = revoked;
      state.recordAudit(invitationAuditEvent(revoked, audit, AuditKind.InvitationRevoked, now));
      return withoutHash(revoked);
    },
    findByTokenHash: async (tokenHash) => {
      const found = state.invitations.find((i) => i.tokenHash === tokenHash);
      return found ? withoutHash(found) : null;
    },
    async accept({ tokenHash, userId, emailKey: accountKey, now }, audit) {
      const index = state.invitations.findIndex((i) => i.tokenHash === tokenHash);
      if (index === -1) return { status: 'not-found' };
      const invitation = state.invitations[index]!;
      const refusal = acceptRefusal(invitation, accountKey, now);
      if (refusal !== null) return { status: refusal, invitation: withoutHash(invitation) };
      const member = state.memberships.find(
        (m) => m.userId === userId && m.organizationId === invitation.organizationId,
      );
      if (member)
        return { status: 'already-member', invitation: withoutHash(invitation), role: member.role };
      const accepted = { ...invitation, acceptedAt: now, acceptedBy: userId };
      state.invitations[index] = accepted;
      state.memberships.push({
        userId,
        organizationId: invitation.organizationId,
        role: invitation.role,
      });
      state.recordAudit(
        invitationAuditEvent(accepted, audit, AuditKind.InvitationAccepted, now, { subjectUserId: userId }),
      );
      return { status: 'accepted', invitation: withoutHash(accepted) };
    },
  };
}
