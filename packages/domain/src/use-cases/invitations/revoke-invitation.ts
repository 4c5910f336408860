import type { Invitation } from '../../entities/invitation.js';
import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { isUuid } from '../../rules/ids.js';
import { Permission } from '../../rules/roles.js';
import { requirePermission } from '../access/require-permission.js';
import { auditNote } from '../access/audit-note.js';

/** Revokes an invitation of the organization (idempotent; an accepted one stays accepted): its link stops working at once. */
export async function revokeInvitation(
  input: { actor: Actor; organizationId: string; invitationId: string },
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<Invitation> {
  await requirePermission(
    input.actor,
    input.organizationId,
    Permission.ManageMembers,
    'revoke invitations',
    deps,
  );
  const revoked = isUuid(input.invitationId)
    ? await deps.repos.invitations.revoke(
        {
          organizationId: input.organizationId,
          invitationId: input.invitationId,
          now: deps.clock.now(),
        },
        auditNote(input.actor, deps),
      )
    : null;
  if (!revoked) throw notFound('Invitation', input.invitationId);
  return revoked;
}
