import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import type { MembershipChangeResult } from '../../ports/members.js';
import { applyMembershipChange } from './apply-membership-change.js';

/** Removes a member (owners and admins; only owners remove owners; never the last owner). */
export async function removeMember(
  { actor, organizationId, userId }: { actor: Actor; organizationId: string; userId: string },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<MembershipChangeResult> {
  return applyMembershipChange({ actor, organizationId, change: { kind: 'remove', userId } }, deps);
}
