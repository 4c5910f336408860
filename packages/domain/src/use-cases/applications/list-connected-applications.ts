import type { ConnectedApplication } from '../../entities/connected-application.js';
import type { Actor } from '../../entities/user.js';
import type { GrantRecord } from '../../ports/application-grants.js';
import { CLI_CLIENT_ID, CLI_CLIENT_NAME } from '../../rules/cli-client.js';
import { listApplicationGrants, type ConnectedApplicationsDeps } from './application-grants-deps.js';

/** The OpenID scopes that grant something themselves; other scopes count where granted for a resource. */
const SHOWN_OPENID_SCOPES = new Set(['openid', 'offline_access']);

const scopesOf = (grant: GrantRecord): string[] => {
  const scopes = Object.values(grant.resources).flatMap((scope) => scope.split(' '));
  for (const scope of (grant.openidScope ?? '').split(' ')) if (SHOWN_OPENID_SCOPES.has(scope)) scopes.push(scope);
  return [...new Set(scopes.filter((scope) => scope.length > 0))];
};

/** The name a person sees for the application behind a grant. */
export const applicationName = (grant: GrantRecord): string => {
  if (grant.clientId === CLI_CLIENT_ID) return CLI_CLIENT_NAME;
  return grant.clientName !== null && grant.clientName.trim() !== '' ? grant.clientName : `Unnamed application (${grant.clientId})`;
};

/**
 * "Connected applications": the OAuth applications the actor allowed to use their
 * account, newest first (the auth server's /account and the dashboard's page).
 */
export async function listConnectedApplications({ actor }: { actor: Actor }, deps: ConnectedApplicationsDeps): Promise<ConnectedApplication[]> {
  return (await listApplicationGrants(actor, deps)).map((grant) => ({
    grantId: grant.grantId,
    clientId: grant.clientId,
    clientName: applicationName(grant),
    scopes: scopesOf(grant),
    grantedAt: grant.grantedAt,
    lastUsedAt: grant.lastUsedAt,
  }));
}
