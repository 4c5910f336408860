import type { Membership } from '../../entities/organization.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import type { DomainDeps } from '../../ports/deps.js';
import { can, rolesWith, type Permission } from '../../rules/roles.js';
import { credentialForbidden } from './credential-scope.js';
import { requireActingMembership, type ActingMembership } from './require-membership.js';

/**
 * The actor's membership when its role holds `permission` (rules/roles.ts); otherwise FORBIDDEN
 * naming the actor's role and the roles that can, so a person (or an assistant) knows whom to ask,
 * or naming the credential when the person could but their API token or CI policy cannot.
 * A foreign or unknown organization is NOT_FOUND, as everywhere.
 */
export async function requirePermission(
  actor: Actor,
  organizationId: string,
  permission: Permission,
  what: string,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Membership> {
  return (await requireActingPermission(actor, organizationId, permission, what, deps)).membership;
}

/** As requirePermission, with the person's own role beside the one they act with. */
export async function requireActingPermission(
  actor: Actor,
  organizationId: string,
  permission: Permission,
  what: string,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<ActingMembership> {
  const acting = await requireActingMembership(actor, organizationId, deps);
  if (can(acting.membership.role, permission)) return acting;
  throw permissionRefusal(actor, acting, permission, what);
}

/** FORBIDDEN for a role without `permission`: naming the credential when the person could but their credential cannot. */
export function permissionRefusal(actor: Actor, acting: ActingMembership, permission: Permission, what: string): DomainError {
  if (actor.credential !== undefined && can(acting.personRole, permission)) return credentialForbidden(actor.credential, what);
  return forbiddenFor(acting.membership, permission, what);
}

export function forbiddenFor(membership: Membership, permission: Permission, what: string): DomainError {
  const roles = rolesWith(permission);
  const names = roles.map((role) => `${role}s`);
  const who = names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? 'nobody');
  return new DomainError(
    ErrorCode.Forbidden,
    `Your role in this organization is ${membership.role}: only ${who} can ${what}. Ask an owner or admin for a role that can.`,
    { role: membership.role, roles },
  );
}
