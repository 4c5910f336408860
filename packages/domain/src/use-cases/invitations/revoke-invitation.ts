import type { Invitation } from '../../entities/invitation.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Permission } from '../../rules/roles.js';
import { auditedChange } from '../access/audited-change.js';
import { requireFound } from '../access/require-found.js';

/** Revokes an invitation of the organization (idempotent; an accepted one stays accepted): its link stops working at once. */
export async function revokeInvitation(
  input: { actor: Actor; organizationId: string; invitationId: string },
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<Invitation> {
  const access = { permission: Permission.ManageMembers, what: 'revoke invitations' };
  return auditedChange(input, access, deps, ({ now, audit }) =>
    requireFound('Invitation', input.invitationId, (invitationId) =>
      deps.repos.invitations.revoke(
        { organizationId: input.organizationId, invitationId, now },
        audit,
      ),
    ),
  );
}
