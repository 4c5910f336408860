import type { CiTrustPolicy } from '../../entities/credential.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Permission } from '../../rules/roles.js';
import { refuseThroughCredential } from '../access/credential-scope.js';
import type { OrganizationRequest } from '../access/organization-request.js';
import { requirePermission } from '../access/require-permission.js';

/** The organization's CI trust policies, oldest first, for roles that manage the setup. */
export async function listCiPolicies(input: OrganizationRequest, deps: Pick<DomainDeps, 'repos'>): Promise<CiTrustPolicy[]> {
  refuseThroughCredential(input.actor, 'list CI trust policies');
  await requirePermission(input.actor, input.organizationId, Permission.ManageSetup, 'see CI trust policies', deps);
  return deps.repos.ciTrustPolicies.listForOrganization(input.organizationId);
}
