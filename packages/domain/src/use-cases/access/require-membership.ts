import type { Actor } from '../../entities/user.js';
import type { Membership } from '../../entities/organization.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { isUuid } from '../../rules/ids.js';

/** The actor's membership of the organization; a foreign or unknown organization is "not found". */
export async function requireMembership(
  actor: Actor,
  organizationId: string,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Membership> {
  const membership = isUuid(organizationId)
    ? await deps.repos.organizations.findMembership(actor.userId, organizationId)
    : null;
  if (!membership) throw notFound('Organization', organizationId);
  return membership;
}
