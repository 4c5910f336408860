import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import type { MembershipChangeResult } from '../../ports/members.js';
import { applyMembershipChange } from './apply-membership-change.js';

/** The actor leaves (any role; the last owner transfers ownership or deletes the organization instead). */
export async function leaveOrganization(
  { actor, organizationId }: { actor: Actor; organizationId: string },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<MembershipChangeResult> {
  return applyMembershipChange({ actor, organizationId, change: { kind: 'leave' } }, deps);
}
