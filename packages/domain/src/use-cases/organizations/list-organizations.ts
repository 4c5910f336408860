import type { MemberOrganization } from '../../entities/organization.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';

export async function listOrganizations(
  { actor }: { actor: Actor },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<MemberOrganization[]> {
  return deps.repos.organizations.listForUser(actor.userId);
}
