import type { Membership } from '../../entities/organization.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import type { DomainDeps } from '../../ports/deps.js';
import { isManager } from '../../rules/roles.js';
import { requireMembership } from './require-membership.js';

/** The actor's membership when it is an owner's or an admin's; members get FORBIDDEN saying who can. */
export async function requireManager(
  actor: Actor,
  organizationId: string,
  what: string,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Membership> {
  const membership = await requireMembership(actor, organizationId, deps);
  if (!isManager(membership.role)) {
    throw new DomainError(
      ErrorCode.Forbidden,
      `Only owners and admins of the organization can ${what}. Ask one of them.`,
    );
  }
  return membership;
}
