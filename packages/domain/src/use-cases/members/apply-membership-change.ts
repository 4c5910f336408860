import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import type { MembershipChange, MembershipChangeResult } from '../../ports/members.js';
import { personalOrganization } from '../organizations/new-organization.js';
import { auditNote } from '../access/audit-note.js';
import { refuseThroughCredential } from '../access/credential-scope.js';

/**
 * What every membership change shares: the repository checks it under lock
 * (rules/membership-changes.ts), writes it and its audit row in one transaction, and gives
 * whoever loses their default organization another one, or a personal one as at sign-up.
 */
export async function applyMembershipChange(
  {
    actor,
    organizationId,
    change,
  }: { actor: Actor; organizationId: string; change: MembershipChange },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<MembershipChangeResult> {
  // The repository checks the person's own role under lock: a credential must not reach it.
  refuseThroughCredential(actor, 'change memberships');
  return deps.repos.members.change({
    organizationId,
    actorId: actor.userId,
    change,
    personalOrganizationFor: (user) => personalOrganization(user, deps),
    audit: auditNote(actor, deps),
    now: deps.clock.now(),
  });
}
