import type { Membership } from '../../entities/organization.js';
import type { Environment } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { canPublishTo, Permission } from '../../rules/roles.js';
import { requirePermission } from '../access/require-permission.js';

/**
 * How the actor may publish to `environment` (rules/roles.ts): `direct` when their role may
 * release there (canPublishTo), `request` when it may publish but the environment is protected
 * (a member: the publish becomes a release request). A role that publishes nowhere (viewer) is
 * refused with FORBIDDEN naming the role and who can; a foreign organization is NOT_FOUND.
 */
export async function requirePublishPermission(
  actor: Actor,
  environment: Environment,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<{ membership: Membership; way: 'direct' | 'request' }> {
  const membership = await requirePermission(
    actor,
    environment.organizationId,
    Permission.Publish,
    'publish',
    deps,
  );
  return { membership, way: canPublishTo(membership.role, environment) ? 'direct' : 'request' };
}
