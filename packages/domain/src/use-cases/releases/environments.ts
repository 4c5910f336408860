import type { Environment } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import type { DomainDeps } from '../../ports/deps.js';
import { normalizeEnvironmentName } from '../../rules/names.js';
import { isManager } from '../../rules/roles.js';
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
  const membership = await requireMembership(actor, organizationId, deps);
  if (!isManager(membership.role)) {
    throw new DomainError(
      ErrorCode.Forbidden,
      'Only owners and admins of the organization can add environments.',
    );
  }
  return deps.repos.environments.create({
    id: deps.ids.newId(),
    organizationId,
    name: environmentName,
    protected: isProtected,
    now: deps.clock.now(),
  });
}
