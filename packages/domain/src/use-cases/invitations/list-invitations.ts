import type { Invitation } from '../../entities/invitation.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Permission } from '../../rules/roles.js';
import { requirePermission } from '../access/require-permission.js';

/** How many of the newest invitations the list shows (pending ones and the recent past). */
export const INVITATIONS_LISTED = 50;

/** The organization's newest invitations, for those who manage members (emails are theirs to see). */
export async function listInvitations(
  input: { actor: Actor; organizationId: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Invitation[]> {
  await requirePermission(
    input.actor,
    input.organizationId,
    Permission.ManageMembers,
    'see invitations',
    deps,
  );
  return deps.repos.invitations.listForOrganization(input.organizationId, {
    limit: INVITATIONS_LISTED,
  });
}
