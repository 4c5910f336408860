import type { Membership } from '../../entities/organization.js';
import type { DomainDeps } from '../../ports/deps.js';
import type { Permission } from '../../rules/roles.js';
import { changeStamp, type ChangeStamp } from './change-stamp.js';
import type { OrganizationRequest } from './organization-request.js';
import { requirePermission } from './require-permission.js';

/** Who may make a change: the permission it takes, and what the FORBIDDEN message says they cannot do. */
export interface ChangeAccess {
  readonly permission: Permission;
  /** Completes "only owners and admins can …", e.g. 'revoke invitations'. */
  readonly what: string;
}

/**
 * One audited change to the organization: the actor's membership must hold `access.permission`
 * (requirePermission: NOT_FOUND for a foreign or unknown organization, else FORBIDDEN), then
 * `change` runs once with the stamp its write port records and the membership. The change's own
 * checks that must not run before the role's go first in `change`, ahead of its write.
 */
export async function auditedChange<T>(
  { actor, organizationId }: OrganizationRequest,
  access: ChangeAccess,
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
  change: (stamp: ChangeStamp, membership: Membership) => Promise<T>,
): Promise<T> {
  const { permission, what } = access;
  const membership = await requirePermission(actor, organizationId, permission, what, deps);
  return change(changeStamp(actor, deps), membership);
}
