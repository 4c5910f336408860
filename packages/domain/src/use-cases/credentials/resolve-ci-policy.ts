import type { ActingCredential, CiTrustPolicy } from '../../entities/credential.js';
import { CredentialRefused } from '../../errors/credential-refused.js';
import type { DomainDeps } from '../../ports/deps.js';
import type { CiClaims } from '../../rules/ci-claims.js';
import { matchCiPolicy } from '../../rules/ci-policy-match.js';

export interface ResolveCiPolicyInput {
  /** The verified token's claims (rules/ci-claims.ts normalizeCiClaims). */
  readonly claims: CiClaims;
  /** The request's `organization`, when the token matches policies of several organizations. */
  readonly organizationId?: string | undefined;
  /** The token's `jti` with its issuer and expiry: claimed once the policy matched (step 7), so a replay is refused. */
  readonly tokenId?: { readonly issuer: string; readonly jti: string; readonly expiresAt: Date } | undefined;
}

export interface ResolvedCiPolicy {
  readonly policy: CiTrustPolicy;
  /** The access token's credential: the policy's scope, and `via: ci` with the run's repository, workflow, run id and commit. */
  readonly credential: ActingCredential;
}

/**
 * The CI trust policy a verified CI token matches (docs/cli-and-ci.md step 6, then the `jti` of step 7),
 * acting as the policy's creator while they remain a member. Every refusal is a CredentialRefused
 * (invalid_grant) naming the claim that failed.
 */
export async function resolveCiPolicy(
  input: ResolveCiPolicyInput,
  deps: Pick<DomainDeps, 'repos' | 'clock'>,
): Promise<ResolvedCiPolicy> {
  const { claims } = input;
  const candidates = await deps.repos.ciTrustPolicies.findCandidates(claims.provider, claims.ownerId);
  const matched = matchCiPolicy(candidates, claims, input.organizationId);
  if ('refusal' in matched) throw new CredentialRefused(matched.refusal.message, matched.refusal.claim);
  const { policy } = matched;
  const membership = await deps.repos.organizations.findMembership(policy.createdBy, policy.organizationId);
  if (membership === null) {
    throw new CredentialRefused(`The person who created policy '${policy.name}' is no longer a member of its organization.`);
  }
  if (input.tokenId !== undefined) {
    const first = await deps.repos.ciTrustPolicies.claimTokenId({ ...input.tokenId, now: deps.clock.now() });
    if (!first) throw new CredentialRefused('jti was used already: a CI token can be exchanged once.', 'jti');
  }
  return {
    policy,
    credential: {
      scope: policy.scope,
      via: {
        via: 'ci',
        policyId: policy.id,
        policyName: policy.name,
        provider: policy.provider,
        repository: claims.repository,
        workflow: claims.workflowRef,
        runId: claims.runId,
        commit: claims.commit,
      },
    },
  };
}
