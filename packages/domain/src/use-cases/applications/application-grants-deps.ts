import type { Actor } from '../../entities/user.js';
import type { ApplicationGrants, GrantRecord } from '../../ports/application-grants.js';
import type { Clock, IdGenerator } from '../../ports/system.js';

/** What the connected-applications use cases need. */
export interface ConnectedApplicationsDeps {
  readonly grants: ApplicationGrants;
  /**
   * First-party clients (the dashboard): signing in to them is not "connecting an
   * application", so their grants are neither listed nor revocable.
   */
  readonly firstPartyClientIds: readonly string[];
  /** For the audit rows a revocation writes. */
  readonly clock: Clock;
  readonly ids: IdGenerator;
}

/** The actor's grants to applications other than first-party ones, newest first. */
export async function listApplicationGrants(actor: Actor, deps: ConnectedApplicationsDeps): Promise<GrantRecord[]> {
  const grants = await deps.grants.listGrants(actor.userId);
  return grants.filter((grant) => !deps.firstPartyClientIds.includes(grant.clientId));
}
