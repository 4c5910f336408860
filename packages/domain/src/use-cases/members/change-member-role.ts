import { Role } from '../../entities/organization.js';
import type { Actor } from '../../entities/user.js';
import { invalidInput } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import type { MembershipChangeResult } from '../../ports/members.js';
import { applyMembershipChange } from './apply-membership-change.js';

const ROLES: readonly string[] = Object.values(Role);

/** A role as sent by a form or a client, or INVALID_INPUT listing the roles. */
export function parseRole(value: string, field: string): Role {
  if (!ROLES.includes(value)) throw invalidInput(field, `choose one of ${ROLES.join(', ')}.`);
  return value as Role;
}

/**
 * Gives a member another role. `from` is the role the actor saw: when it changed meanwhile
 * (another admin was quicker), the change is refused with CONFLICT instead of silently
 * overwriting theirs. Admins manage viewers, members and admins; only owners make or unmake
 * owners; nobody changes their own role; the last owner is never demoted.
 */
export async function changeMemberRole(
  {
    actor,
    organizationId,
    userId,
    from,
    to,
  }: { actor: Actor; organizationId: string; userId: string; from: string; to: string },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<MembershipChangeResult> {
  const change = {
    kind: 'role',
    userId,
    from: parseRole(from, 'from'),
    to: parseRole(to, 'role'),
  } as const;
  return applyMembershipChange({ actor, organizationId, change }, deps);
}
