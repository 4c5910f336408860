import type { Member } from '../../entities/organization.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Permission } from '../../rules/roles.js';
import { requirePermission } from '../access/require-permission.js';

/** The organization's members (email, role, when they joined): every member, viewers included, may read them. */
export async function listMembers(
  { actor, organizationId }: { actor: Actor; organizationId: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Member[]> {
  await requirePermission(actor, organizationId, Permission.Read, 'see the members', deps);
  return deps.repos.members.list(organizationId);
}
