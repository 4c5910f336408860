import type { Role } from './organization.js';

/** The roles an invitation can give: ownership is never invited, it is transferred to a member. */
export type InvitableRole = Exclude<Role, 'owner'>;

/**
 * A single-use link that joins one person (by email) to an organization with a role.
 * Only the sha256 of its secret is stored; the link is shown once, to the inviter.
 */
export interface Invitation {
  readonly id: string;
  readonly organizationId: string;
  /** As the inviter typed it (trimmed); matched case-insensitively. */
  readonly email: string;
  readonly role: InvitableRole;
  readonly invitedBy: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  /** Set once, by the acceptance that used it. */
  readonly acceptedAt: Date | null;
  readonly acceptedBy: string | null;
  /** Set once: revoked by a manager, or replaced by a newer invitation for the same email. */
  readonly revokedAt: Date | null;
  readonly revokedBy: string | null;
}

export type InvitationState = 'pending' | 'expired' | 'revoked' | 'accepted';

export const invitationState = (invitation: Invitation, now: Date): InvitationState => {
  if (invitation.acceptedAt !== null) return 'accepted';
  if (invitation.revokedAt !== null) return 'revoked';
  return invitation.expiresAt.getTime() <= now.getTime() ? 'expired' : 'pending';
};
