import type { ApiToken } from '../../entities/credential.js';
import type { DomainDeps } from '../../ports/deps.js';
import { can, Permission } from '../../rules/roles.js';
import { refuseThroughCredential } from '../access/credential-scope.js';
import type { OrganizationRequest } from '../access/organization-request.js';
import { requireMembership } from '../access/require-membership.js';

/** The organization's API tokens newest first, revoked and expired ones included: a member's own; every one for owners and admins (ManageSetup). */
export async function listApiTokens(input: OrganizationRequest, deps: Pick<DomainDeps, 'repos'>): Promise<ApiToken[]> {
  refuseThroughCredential(input.actor, 'list API tokens');
  const membership = await requireMembership(input.actor, input.organizationId, deps);
  const tokens = await deps.repos.apiTokens.listForOrganization(input.organizationId);
  return can(membership.role, Permission.ManageSetup) ? tokens : tokens.filter((t) => t.createdBy === input.actor.userId);
}
