import type { Environment } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { can, Permission } from '../../rules/roles.js';
import { requireFound } from '../access/require-found.js';
import { requireActingMembership } from '../access/require-membership.js';
import { permissionRefusal } from '../access/require-permission.js';

/**
 * The organization's environment by id, for a role that manages the setup (Permission.ManageSetup,
 * like adding one). An unknown id is NOT_FOUND for every member, before the role is looked at.
 */
export async function loadManagedEnvironment(
  input: { actor: Actor; organizationId: string; environmentId: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Environment> {
  const acting = await requireActingMembership(input.actor, input.organizationId, deps);
  const environment = await requireFound('Environment', input.environmentId, async (id) => {
    const environments = await deps.repos.environments.listForOrganization(input.organizationId);
    return environments.find((env) => env.id === id) ?? null;
  });
  if (!can(acting.membership.role, Permission.ManageSetup)) {
    throw permissionRefusal(input.actor, acting, Permission.ManageSetup, 'change environments');
  }
  return environment;
}
