import type { Organization } from '../../entities/organization.js';
import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Permission } from '../../rules/roles.js';
import { requirePermission } from '../access/require-permission.js';
import { organizationName } from './new-organization.js';
import { auditNote } from '../access/audit-note.js';

/** Renames the organization (owners only); the trail records the old and the new name. */
export async function renameOrganization(
  { actor, organizationId, name }: { actor: Actor; organizationId: string; name: string },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<Organization> {
  await requirePermission(actor, organizationId, Permission.Own, 'rename the organization', deps);
  const renamed = await deps.repos.organizations.rename({
    organizationId,
    name: organizationName(name),
    audit: auditNote(actor, deps),
    now: deps.clock.now(),
  });
  if (!renamed) throw notFound('Organization', organizationId);
  return renamed;
}
