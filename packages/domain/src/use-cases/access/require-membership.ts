import type { Actor } from '../../entities/user.js';
import type { Membership } from '../../entities/organization.js';
import type { DomainDeps } from '../../ports/deps.js';
import { requireFound } from './require-found.js';

/** The actor's membership of the organization; a foreign or unknown organization is "not found". */
export const requireMembership = (
  actor: Actor,
  organizationId: string,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Membership> =>
  requireFound('Organization', organizationId, (id) =>
    deps.repos.organizations.findMembership(actor.userId, id),
  );
