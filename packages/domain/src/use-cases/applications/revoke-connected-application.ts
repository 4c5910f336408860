import { refuseThroughCredential } from '../access/credential-scope.js';
import type { Actor } from '../../entities/user.js';
import { listApplicationGrants, type ConnectedApplicationsDeps } from './application-grants-deps.js';
import { applicationName } from './list-connected-applications.js';

/**
 * Revokes one of the actor's connected applications: its grant and every code and
 * token issued under it (the MCP server refuses its tokens within its grant cache
 * time). `not-connected`, changing nothing, when the grant is not one the actor
 * would see listed: another account's, a first-party client's, or none.
 * The repository records ApplicationRevoked in each of the actor's organizations,
 * in the revocation's transaction: the grant reached all of them.
 */
export async function revokeConnectedApplication(
  { actor, grantId }: { actor: Actor; grantId: string },
  deps: ConnectedApplicationsDeps,
): Promise<'revoked' | 'not-connected'> {
  refuseThroughCredential(actor, 'revoke connected applications');
  const grant = (await listApplicationGrants(actor, deps)).find((owned) => owned.grantId === grantId);
  if (!grant) return 'not-connected';
  await deps.grants.revokeGrant(grantId, {
    actorId: actor.userId,
    newEventId: () => deps.ids.newId(),
    now: deps.clock.now(),
    clientId: grant.clientId,
    clientName: applicationName(grant),
  });
  return 'revoked';
}
