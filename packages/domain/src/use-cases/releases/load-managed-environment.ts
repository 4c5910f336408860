import type { Environment } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { isUuid } from '../../rules/ids.js';
import { isManager } from '../../rules/roles.js';
import { requireMembership } from '../access/require-membership.js';

/** The organization's environment by id, for an owner or admin (like adding one). */
export async function loadManagedEnvironment(
  actor: Actor,
  organizationId: string,
  environmentId: string,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Environment> {
  const membership = await requireMembership(actor, organizationId, deps);
  const environments = isUuid(environmentId)
    ? await deps.repos.environments.listForOrganization(organizationId)
    : [];
  const environment = environments.find((env) => env.id === environmentId);
  if (!environment) throw notFound('Environment', environmentId);
  if (!isManager(membership.role)) {
    throw new DomainError(
      ErrorCode.Forbidden,
      'Only owners and admins of the organization can change environments.',
    );
  }
  return environment;
}
