import type { ApiToken } from '../../entities/credential.js';
import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { can, Permission } from '../../rules/roles.js';
import { changeStamp } from '../access/change-stamp.js';
import { refuseThroughCredential } from '../access/credential-scope.js';
import { requireFound } from '../access/require-found.js';
import { requireMembership } from '../access/require-membership.js';

/**
 * Revokes an API token (idempotent: the first revocation's time stays): a member's own, or any with
 * ManageSetup; another's token is NOT_FOUND, as an unknown one. Its grant goes with it, so its access
 * tokens stop within the grant-check window.
 */
export async function revokeApiToken(
  input: { actor: Actor; organizationId: string; tokenId: string },
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<ApiToken> {
  refuseThroughCredential(input.actor, 'revoke API tokens');
  const membership = await requireMembership(input.actor, input.organizationId, deps);
  const token = await requireFound('API token', input.tokenId, async (id) =>
    (await deps.repos.apiTokens.listForOrganization(input.organizationId)).find((t) => t.id === id) ?? null,
  );
  if (token.createdBy !== input.actor.userId && !can(membership.role, Permission.ManageSetup)) {
    throw notFound('API token', input.tokenId);
  }
  const stamp = changeStamp(input.actor, deps);
  const revoked = await deps.repos.apiTokens.revoke({ organizationId: input.organizationId, tokenId: token.id, ...stamp });
  if (revoked === null) throw notFound('API token', input.tokenId);
  return revoked;
}
