import type { Environment } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { normalizeEnvironmentName } from '../../rules/names.js';
import { Permission } from '../../rules/roles.js';
import { auditedChange } from '../access/audited-change.js';
import { requireMembership } from '../access/require-membership.js';

export async function listEnvironments(
  { actor, organizationId }: { actor: Actor; organizationId: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Environment[]> {
  await requireMembership(actor, organizationId, deps);
  return deps.repos.environments.listForOrganization(organizationId);
}

/** Adding an environment changes where releases can go: owners and admins only. Open to every member unless `protected`. */
export async function createEnvironment(
  {
    actor,
    organizationId,
    name,
    protected: isProtected = false,
  }: { actor: Actor; organizationId: string; name: string; protected?: boolean },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<Environment> {
  const environmentName = normalizeEnvironmentName(name);
  const access = { permission: Permission.ManageSetup, what: 'add environments' };
  return auditedChange({ actor, organizationId }, access, deps, (stamp) =>
    deps.repos.environments.create({
      id: deps.ids.newId(),
      organizationId,
      name: environmentName,
      protected: isProtected,
      ...stamp,
    }),
  );
}
