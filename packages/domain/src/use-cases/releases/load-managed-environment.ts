import type { Environment } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { isUuid } from '../../rules/ids.js';
import { can, Permission } from '../../rules/roles.js';
import { requireMembership } from '../access/require-membership.js';
import { forbiddenFor } from '../access/require-permission.js';

/**
 * The organization's environment by id, for a role that manages the setup (Permission.ManageSetup,
 * like adding one). An unknown id is NOT_FOUND for every member, before the role is looked at.
 */
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
  if (!can(membership.role, Permission.ManageSetup)) {
    throw forbiddenFor(membership, Permission.ManageSetup, 'change environments');
  }
  return environment;
}
