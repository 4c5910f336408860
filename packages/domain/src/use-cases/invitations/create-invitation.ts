import type { Invitation } from '../../entities/invitation.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import type { DomainDeps } from '../../ports/deps.js';
import {
  DEFAULT_INVITATION_TTL_SECONDS,
  hashInvitationToken,
  newInvitationToken,
  normalizeInvitationEmail,
  parseInvitableRole,
} from '../../rules/invitations.js';
import { canAssignRole, Permission } from '../../rules/roles.js';
import { auditedChange } from '../access/audited-change.js';
import { forbiddenFor } from '../access/require-permission.js';

export interface CreatedInvitation {
  readonly invitation: Invitation;
  /** Shown once (the link is `/invitations/<token>`): only its hash is stored. */
  readonly token: string;
  /** Open invitations for the same email that this one replaced (their links stop working). */
  readonly replaced: readonly string[];
}

/**
 * An owner's or admin's invitation of `email` as admin, member or viewer.
 * 1. Only roles holding ManageMembers invite, and only to roles they may assign.
 * 2. Someone who is already a member is refused (change their role instead).
 * 3. A newer invitation for the same email replaces the pending one: one working link per person.
 * 2 and 3 are the repository's atomic work, so parallel invitations keep them.
 */
export async function createInvitation(
  input: { actor: Actor; organizationId: string; email: string; role: string; ttlSeconds?: number },
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<CreatedInvitation> {
  const access = { permission: Permission.ManageMembers, what: 'invite people' };
  return auditedChange(input, access, deps, async (stamp, membership) => {
    const email = normalizeInvitationEmail(input.email);
    const role = parseInvitableRole(input.role);
    if (!canAssignRole(membership.role, role))
      throw forbiddenFor(membership, Permission.Own, `invite someone as ${role}`);
    const token = newInvitationToken();
    const ttlSeconds = input.ttlSeconds ?? DEFAULT_INVITATION_TTL_SECONDS;
    const created = await deps.repos.invitations.create(
      {
        id: deps.ids.newId(),
        organizationId: input.organizationId,
        email,
        role,
        tokenHash: hashInvitationToken(token),
        invitedBy: input.actor.userId,
        createdAt: stamp.now,
        expiresAt: new Date(stamp.now.getTime() + ttlSeconds * 1000),
      },
      stamp.audit,
    );
    if (created === 'already-member') {
      throw new DomainError(
        ErrorCode.AlreadyMember,
        `${email} is already a member of this organization: change their role on the Members page instead.`,
        { email },
      );
    }
    return { ...created, token };
  });
}
