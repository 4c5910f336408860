import type { Membership, Role } from '../../entities/organization.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { cappedRole, withinCredentialOrganization } from './credential-scope.js';
import { requireFound } from './require-found.js';

/** The actor's membership as they act now (capped by their credential), and the person's own role. */
export interface ActingMembership {
  readonly membership: Membership;
  readonly personRole: Role;
}

/**
 * The actor's membership of the organization with the role they act with (a credential's cap applied),
 * or null for a foreign or unknown organization, and for any organization but a credential's own.
 * The one place memberships are read for an actor.
 */
export async function findActingMembership(
  actor: Actor,
  organizationId: string,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<ActingMembership | null> {
  if (!withinCredentialOrganization(actor, organizationId)) return null;
  const membership = await deps.repos.organizations.findMembership(actor.userId, organizationId);
  if (membership === null) return null;
  return { membership: { ...membership, role: cappedRole(membership.role, actor.credential) }, personRole: membership.role };
}

/** As findActingMembership; a foreign or unknown organization is "not found". */
export const requireActingMembership = (
  actor: Actor,
  organizationId: string,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<ActingMembership> =>
  requireFound('Organization', organizationId, (id) => findActingMembership(actor, id, deps));

/** The actor's membership of the organization (role capped by a credential); a foreign or unknown organization is "not found". */
export const requireMembership = async (
  actor: Actor,
  organizationId: string,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Membership> => (await requireActingMembership(actor, organizationId, deps)).membership;
