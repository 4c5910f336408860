import type { Membership } from '../../entities/organization.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import type { DomainDeps } from '../../ports/deps.js';
import { can, rolesWith, type Permission } from '../../rules/roles.js';
import { requireMembership } from './require-membership.js';

/**
 * The actor's membership when its role holds `permission` (rules/roles.ts); otherwise FORBIDDEN
 * naming the actor's role and the roles that can, so a person (or an assistant) knows whom to ask.
 * A foreign or unknown organization is NOT_FOUND, as everywhere.
 */
export async function requirePermission(
  actor: Actor,
  organizationId: string,
  permission: Permission,
  what: string,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Membership> {
  const membership = await requireMembership(actor, organizationId, deps);
  if (!can(membership.role, permission)) throw forbiddenFor(membership, permission, what);
  return membership;
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
