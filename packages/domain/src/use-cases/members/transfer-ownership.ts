import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import type { MembershipChangeResult } from '../../ports/members.js';
import { applyMembershipChange } from './apply-membership-change.js';

/** An owner hands ownership to another member, who becomes an owner; the actor becomes an admin. */
export async function transferOwnership(
  { actor, organizationId, userId }: { actor: Actor; organizationId: string; userId: string },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<MembershipChangeResult> {
  return applyMembershipChange(
    { actor, organizationId, change: { kind: 'transfer', userId } },
    deps,
  );
}
