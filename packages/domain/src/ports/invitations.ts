import type { AuditNote } from '../entities/audit-event.js';
import type { Invitation, InvitableRole } from '../entities/invitation.js';
import type { Role } from '../entities/organization.js';

export interface NewInvitation {
  readonly id: string;
  readonly organizationId: string;
  readonly email: string;
  readonly role: InvitableRole;
  /** rules/invitations.ts `hashInvitationToken` of the link's token. */
  readonly tokenHash: string;
  readonly invitedBy: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** What one acceptance did; only `accepted` changed anything. */
export type AcceptOutcome =
  | { readonly status: 'accepted'; readonly invitation: Invitation }
  | { readonly status: 'not-found' }
  | {
      readonly status: 'expired' | 'revoked' | 'used' | 'wrong-account';
      readonly invitation: Invitation;
    }
  | { readonly status: 'already-member'; readonly invitation: Invitation; readonly role: Role };

export interface Invitations {
  /**
   * Atomic, also under parallel calls: unless someone with this email (case-insensitive) is
   * already a member, revokes the organization's open invitations for the email (the newest
   * link is the only one that works) and adds this one. Audit: InvitationCreated (email, role,
   * `replaced` ids), in the same transaction.
   */
  create(
    invitation: NewInvitation,
    audit: AuditNote,
  ): Promise<{ invitation: Invitation; replaced: string[] } | 'already-member'>;
  /** The organization's invitations, newest first, at most `limit`. */
  listForOrganization(organizationId: string, options: { limit: number }): Promise<Invitation[]>;
  /**
   * Revokes the organization's invitation unless it is accepted or revoked already (then it is
   * returned unchanged, and no audit row is written); null when the organization has no such one.
   * Audit: InvitationRevoked (email, role).
   */
  revoke(
    input: { organizationId: string; invitationId: string; now: Date },
    audit: AuditNote,
  ): Promise<Invitation | null>;
  findByTokenHash(tokenHash: string): Promise<Invitation | null>;
  /**
   * Atomic: one conditional update claims the invitation (pending, unexpired at `now`, for
   * `emailKey`) and the membership is added in the same transaction, so of parallel
   * acceptances exactly one succeeds. Someone who is already a member gets `already-member`
   * and the invitation stays pending (nothing changes). Audit: InvitationAccepted
   * (subjectUserId = the new member; role, email).
   */
  accept(
    input: { tokenHash: string; userId: string; emailKey: string; now: Date },
    audit: AuditNote,
  ): Promise<AcceptOutcome>;
}
