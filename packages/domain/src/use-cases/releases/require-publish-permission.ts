import type { Membership } from '../../entities/organization.js';
import type { Environment } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Permission } from '../../rules/roles.js';
import { publishWay } from '../access/credential-scope.js';
import { requireActingPermission } from '../access/require-permission.js';

/**
 * How the actor may publish to `environment` (rules/roles.ts): `direct` when their role may
 * release there (canPublishTo), `request` when it may publish but the environment is protected
 * (a member: the publish becomes a release request). A role that publishes nowhere (viewer) is
 * refused with FORBIDDEN naming the role and who can; a foreign organization is NOT_FOUND.
 * Through a credential, its environments and protected-environment setting apply (publishWay).
 */
export async function requirePublishPermission(
  actor: Actor,
  environment: Environment,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<{ membership: Membership; way: 'direct' | 'request' }> {
  const { membership, personRole } = await requireActingPermission(
    actor,
    environment.organizationId,
    Permission.Publish,
    'publish',
    deps,
  );
  return { membership, way: publishWay(actor, personRole, environment) };
}
