import { refuseThroughCredential } from '../access/credential-scope.js';
import type { Invitation } from '../../entities/invitation.js';
import type { Organization } from '../../entities/organization.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import type { DomainDeps } from '../../ports/deps.js';
import { emailKey, hashInvitationToken, isInvitationToken } from '../../rules/invitations.js';
import { invitationNotFound } from './find-invitation.js';
import { auditNote } from '../access/audit-note.js';

/**
 * The signed-in actor joins the organization through an invitation link.
 * 1. The actor's account email must be the invited one (case-insensitive): a forwarded link
 *    lets nobody else in.
 * 2. Expired, revoked and used invitations are refused with what to do next; the token is never echoed.
 * 3. One conditional update claims the invitation and the membership is written in the same
 *    transaction (the repository's work): of parallel acceptances exactly one joins.
 * 4. An actor who is already a member is told so, and the invitation stays unused.
 */
export async function acceptInvitation(
  input: { actor: Actor; token: string },
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<{ invitation: Invitation; organization: Organization }> {
  refuseThroughCredential(input.actor, 'accept invitations');
  const user = isInvitationToken(input.token)
    ? await deps.repos.users.findById(input.actor.userId)
    : null;
  if (!user) throw invitationNotFound();
  const outcome = await deps.repos.invitations.accept(
    {
      tokenHash: hashInvitationToken(input.token),
      userId: user.id,
      emailKey: emailKey(user.email),
      now: deps.clock.now(),
    },
    auditNote({ userId: user.id }, deps),
  );
  if (outcome.status === 'not-found') throw invitationNotFound();
  const organization = await deps.repos.organizations.findById(outcome.invitation.organizationId);
  if (!organization) throw invitationNotFound();
  const ask = `Ask an owner or admin of ${organization.name} for a new invitation.`;
  switch (outcome.status) {
    case 'accepted':
      return { invitation: outcome.invitation, organization };
    case 'wrong-account':
      throw new DomainError(
        ErrorCode.Forbidden,
        `This invitation is for ${outcome.invitation.email}, and you are signed in as ${user.email}. Sign out, then open the link again and sign in (or create an account) as ${outcome.invitation.email}.`,
        { reason: 'wrong-account' },
      );
    case 'expired':
      throw new DomainError(
        ErrorCode.InvitationExpired,
        `This invitation to ${organization.name} expired on ${outcome.invitation.expiresAt.toISOString().slice(0, 10)}. ${ask}`,
      );
    case 'revoked':
      throw new DomainError(
        ErrorCode.InvitationRevoked,
        `This invitation to ${organization.name} was revoked (or replaced by a newer one). ${ask}`,
      );
    case 'used':
      throw new DomainError(
        ErrorCode.InvitationUsed,
        outcome.invitation.acceptedBy === user.id
          ? `You already joined ${organization.name} with this invitation: open it from your organizations.`
          : `This invitation to ${organization.name} was already used. ${ask}`,
        { organizationId: organization.id },
      );
    case 'already-member':
      throw new DomainError(
        ErrorCode.AlreadyMember,
        `You are already a member of ${organization.name} (as ${outcome.role}): nothing to accept. To get another role, ask an owner or admin to change it on the Members page.`,
        { organizationId: organization.id },
      );
  }
}
