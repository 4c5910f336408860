import type { CiTrustPolicy } from '../../entities/credential.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Permission } from '../../rules/roles.js';
import { auditedChange } from '../access/audited-change.js';
import { refuseThroughCredential } from '../access/credential-scope.js';
import { requireFound } from '../access/require-found.js';

/**
 * Deletes a CI trust policy, for roles that manage the setup; its grant goes with it, so access
 * tokens from it stop within the grant-check window and its next exchange is refused.
 */
export async function deleteCiPolicy(
  input: { actor: Actor; organizationId: string; policyId: string },
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<CiTrustPolicy> {
  refuseThroughCredential(input.actor, 'delete CI trust policies');
  const access = { permission: Permission.ManageSetup, what: 'delete CI trust policies' };
  return auditedChange(input, access, deps, (stamp) =>
    requireFound('CI trust policy', input.policyId, (policyId) =>
      deps.repos.ciTrustPolicies.remove({ organizationId: input.organizationId, policyId, now: stamp.now, audit: stamp.audit }),
    ),
  );
}
