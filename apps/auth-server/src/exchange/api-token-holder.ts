import { type DomainDeps, exchangeApiToken } from '@cp/domain';
import { ExchangeRefusal } from '../ci/refusals.js';
import type { CredentialHolder } from './credential-grant.js';
import { asExchangeRefusal } from './domain-refusal.js';

/**
 * An API token's credential (docs/cli-and-ci.md "API tokens"): the domain checks its checksum before
 * any lookup, then its state and its creator's membership, and says how long its access token may live.
 */
export async function apiTokenHolder(input: { secret: string }, deps: { domain: Pick<DomainDeps, 'repos' | 'clock'> }): Promise<CredentialHolder> {
  const { userId, credential, token, expiresAt } = await asExchangeRefusal(() => exchangeApiToken({ secret: input.secret }, deps.domain));
  const tokens = deps.domain.repos.apiTokens;
  return {
    userId,
    credential,
    grantId: token.grantId,
    notAfter: expiresAt,
    attachGrant: ({ grantId, expected }) => tokens.attachGrant({ tokenId: token.id, grantId, expected }),
    goneRefusal: () => new ExchangeRefusal('subject_token', `the API token '${token.name}' was revoked meanwhile`),
  };
}
