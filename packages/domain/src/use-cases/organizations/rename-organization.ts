import type { Organization } from '../../entities/organization.js';
import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Permission } from '../../rules/roles.js';
import { auditedChange } from '../access/audited-change.js';
import { organizationName } from './new-organization.js';

/** Renames the organization (owners only); the trail records the old and the new name. */
export async function renameOrganization(
  { actor, organizationId, name }: { actor: Actor; organizationId: string; name: string },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<Organization> {
  const access = { permission: Permission.Own, what: 'rename the organization' };
  const renamed = await auditedChange({ actor, organizationId }, access, deps, (stamp) =>
    deps.repos.organizations.rename({ organizationId, name: organizationName(name), ...stamp }),
  );
  if (!renamed) throw notFound('Organization', organizationId);
  return renamed;
}
