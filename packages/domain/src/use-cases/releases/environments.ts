import type { Environment } from '../../entities/release.js';
import { Role } from '../../entities/organization.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import type { DomainDeps } from '../../ports/deps.js';
import { normalizeEnvironmentName } from '../../rules/names.js';
import { requireMembership } from '../access/require-membership.js';

export async function listEnvironments(
  { actor, organizationId }: { actor: Actor; organizationId: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Environment[]> {
  await requireMembership(actor, organizationId, deps);
  return deps.repos.environments.listForOrganization(organizationId);
}

/** Adding an environment changes where releases can go: owners and admins only. */
export async function createEnvironment(
  { actor, organizationId, name }: { actor: Actor; organizationId: string; name: string },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<Environment> {
  const environmentName = normalizeEnvironmentName(name);
  const membership = await requireMembership(actor, organizationId, deps);
  if (membership.role === Role.Member) {
    throw new DomainError(ErrorCode.Forbidden, 'Only owners and admins of the organization can add environments.');
  }
  return deps.repos.environments.create({
    id: deps.ids.newId(),
    organizationId,
    name: environmentName,
    now: deps.clock.now(),
  });
}
