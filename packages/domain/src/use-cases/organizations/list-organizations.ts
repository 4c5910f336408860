import type { MemberOrganization } from '../../entities/organization.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { visibleOrganizations } from '../access/credential-scope.js';

export async function listOrganizations(
  { actor }: { actor: Actor },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<MemberOrganization[]> {
  return visibleOrganizations(actor, await deps.repos.organizations.listForUser(actor.userId));
}
