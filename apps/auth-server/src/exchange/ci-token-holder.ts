import { type DomainDeps, normalizeCiClaims, resolveCiPolicy } from '@cp/domain';
import { ExchangeRefusal } from '../ci/refusals.js';
import type { CiTokenVerifier } from '../ci/verify-ci-token.js';
import type { ExchangeConfig } from '../config.js';
import type { CredentialHolder } from './credential-grant.js';
import { asExchangeRefusal } from './domain-refusal.js';

/**
 * A CI OIDC token's credential (docs/cli-and-ci.md "Checks, in order"): the token verified (1-5), its
 * claims read for its provider and matched against the CI trust policies (6), then its `jti` claimed
 * (7) by the domain only once a policy matched, so a refused token does not use up its id. The id is
 * kept past `exp` by the verifier's leeway, so the token cannot come back while it is still accepted.
 */
export async function ciTokenHolder(
  input: { token: string; organizationId: string | undefined },
  deps: { verify: CiTokenVerifier; domain: Pick<DomainDeps, 'repos' | 'clock'>; config: Pick<ExchangeConfig, 'clockToleranceSeconds'> },
): Promise<CredentialHolder> {
  const verified = await deps.verify(input.token);
  const normalized = normalizeCiClaims(verified.issuer.provider, verified.claims);
  if ('refusal' in normalized) throw new ExchangeRefusal(normalized.refusal.claim, normalized.refusal.message);
  const tokenId = {
    issuer: verified.issuer.issuer,
    jti: verified.jti,
    expiresAt: new Date(verified.expiresAt.getTime() + deps.config.clockToleranceSeconds * 1000),
  };
  const { policy, credential } = await asExchangeRefusal(() =>
    resolveCiPolicy({ claims: normalized.claims, organizationId: input.organizationId, tokenId }, deps.domain),
  );
  const policies = deps.domain.repos.ciTrustPolicies;
  return {
    userId: policy.createdBy,
    credential,
    grantId: policy.grantId,
    notAfter: null,
    attachGrant: ({ grantId, expected }) => policies.attachGrant({ policyId: policy.id, grantId, expected }),
    goneRefusal: () => new ExchangeRefusal('policy', `policy '${policy.name}' was deleted meanwhile`),
  };
}
