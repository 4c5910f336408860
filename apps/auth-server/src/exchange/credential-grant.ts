import { type ActingCredential, CredentialAccess } from '@cp/domain';
import type Provider from 'oidc-provider';
import type { Grant } from 'oidc-provider';
import type { ExchangeRefusal } from '../ci/refusals.js';

/** The credential an exchange acts with, and where its one grant is recorded. */
export interface CredentialHolder {
  /** The creator: the grant's account and the access token's `sub`. */
  readonly userId: string;
  readonly credential: ActingCredential;
  /** The grant recorded for this credential (ApiToken.grantId, CiTrustPolicy.grantId); null before its first exchange. */
  readonly grantId: string | null;
  /** When the credential itself expires (an API token), so its access tokens never outlive it; null: no expiry. */
  readonly notAfter: Date | null;
  /** The credential's compare-and-set (ApiTokens / CiTrustPolicies `attachGrant`): the grant id that holds, null when the credential is gone. */
  readonly attachGrant: (input: { grantId: string; expected: string | null }) => Promise<string | null>;
  /** Why the credential is gone, when attachGrant says so (the policy or token was deleted meanwhile). */
  readonly goneRefusal: () => ExchangeRefusal;
}

/** `mcp:read` for a read credential, `mcp:read mcp:write` for write (docs/cli-and-ci.md "The exchange"). */
export const scopeOf = (credential: ActingCredential): string =>
  credential.scope.access === CredentialAccess.Write ? 'mcp:read mcp:write' : 'mcp:read';

const fits = (grant: Grant | undefined, holder: CredentialHolder, clientId: string, resource: string): grant is Grant =>
  grant !== undefined &&
  grant.accountId === holder.userId &&
  grant.clientId === clientId &&
  grant.getResourceScope(resource) === scopeOf(holder.credential);

/**
 * The credential's one OAuth grant (so revocation and the MCP server's grant check work as for any
 * application): the recorded one while it exists, else a new grant for the creator, the client and the MCP
 * resource, recorded with the credential's compare-and-set. Of two exchanges that race to record one, the
 * loser destroys its own grant and uses the winner's.
 */
export async function credentialGrant(
  provider: Provider,
  holder: CredentialHolder,
  options: { clientId: string; resource: string },
  attempts = 2,
): Promise<Grant> {
  const { clientId, resource } = options;
  if (holder.grantId !== null) {
    const recorded = await provider.Grant.find(holder.grantId);
    if (fits(recorded, holder, clientId, resource)) return recorded;
  }
  const grant = new provider.Grant({ accountId: holder.userId, clientId });
  grant.addResourceScope(resource, scopeOf(holder.credential));
  const grantId = await grant.save();
  const holding = await holder.attachGrant({ grantId, expected: holder.grantId });
  if (holding === grantId) return grant;
  await grant.destroy();
  if (holding === null) throw holder.goneRefusal();
  const winner = await provider.Grant.find(holding);
  if (fits(winner, holder, clientId, resource)) return winner;
  // The winner's grant is gone already (revoked from /account right after): record a new one over it, once more.
  if (attempts > 1) return credentialGrant(provider, { ...holder, grantId: holding }, options, attempts - 1);
  throw holder.goneRefusal();
}
