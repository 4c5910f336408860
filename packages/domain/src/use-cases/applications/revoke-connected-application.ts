import type { Actor } from '../../entities/user.js';
import { listApplicationGrants, type ConnectedApplicationsDeps } from './application-grants-deps.js';

/**
 * Revokes one of the actor's connected applications: its grant and every code and
 * token issued under it (the MCP server refuses its tokens within its grant cache
 * time). `not-connected`, changing nothing, when the grant is not one the actor
 * would see listed: another account's, a first-party client's, or none.
 */
export async function revokeConnectedApplication(
  { actor, grantId }: { actor: Actor; grantId: string },
  deps: ConnectedApplicationsDeps,
): Promise<'revoked' | 'not-connected'> {
  const owned = (await listApplicationGrants(actor, deps)).some((grant) => grant.grantId === grantId);
  if (!owned) return 'not-connected';
  await deps.grants.revokeGrant(grantId);
  return 'revoked';
}
