import type { CiTrustPolicy } from '../entities/credential.js';
import { CI_CLAIM_NAMES, HOSTED_RUNNER, type CiClaims, type CiRefusal } from './ci-claims.js';

/**
 * Whether `ref` matches `pattern`, where `*` stands for any run of characters (slashes included) and
 * everything else for itself, over the whole ref. No regular expression is built from a person's text.
 */
export function refMatches(pattern: string, ref: string): boolean {
  let p = 0;
  let r = 0;
  let star = -1;
  let resume = 0;
  while (r < ref.length) {
    if (p < pattern.length && pattern[p] !== '*' && pattern[p] === ref[r]) {
      p += 1;
      r += 1;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p;
      resume = r;
      p += 1;
    } else if (star !== -1) {
      p = star + 1;
      resume += 1;
      r = resume;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p += 1;
  return p === pattern.length;
}

type Compared = 'repositoryId' | 'workflow' | 'environment' | 'ref' | 'runnerEnvironment';

/** The comparisons of docs/cli-and-ci.md step 6, in order: the first that fails names the refusal. */
const CHECKS: readonly [Compared, (policy: CiTrustPolicy, claims: CiClaims) => boolean][] = [
  ['repositoryId', (policy, claims) => policy.repositoryId === claims.repositoryId],
  ['workflow', (policy, claims) => policy.workflow === claims.workflowPath],
  ['environment', (policy, claims) => policy.environment === null || policy.environment === claims.environment],
  ['ref', (policy, claims) => policy.refPatterns.length === 0 || policy.refPatterns.some((p) => refMatches(p, claims.ref))],
  [
    'runnerEnvironment',
    (policy, claims) => !policy.requireHostedRunner || claims.runnerEnvironment === HOSTED_RUNNER[claims.provider],
  ],
];

/** How many checks the policy passes before the first that fails (CHECKS.length: all). */
const depthOf = (policy: CiTrustPolicy, claims: CiClaims): number => {
  const failed = CHECKS.findIndex(([, passes]) => !passes(policy, claims));
  return failed === -1 ? CHECKS.length : failed;
};

/**
 * The policy a CI token's claims satisfy, among the candidates (the provider's policies with the token's owner id,
 * oldest first), or a refusal naming the first claim that failed for the candidate that matched longest.
 * `organizationId` narrows the candidates to one organization; without it, matches in several organizations
 * are refused, asking for `organization`. Within one organization the oldest matching policy acts.
 */
export function matchCiPolicy(
  candidates: readonly CiTrustPolicy[],
  claims: CiClaims,
  organizationId?: string,
): { readonly policy: CiTrustPolicy } | { readonly refusal: CiRefusal } {
  const names = CI_CLAIM_NAMES[claims.provider];
  const mine = candidates.filter(
    (policy) =>
      policy.provider === claims.provider &&
      policy.ownerId === claims.ownerId &&
      (organizationId === undefined || policy.organizationId === organizationId),
  );
  if (mine.length === 0) {
    const where = organizationId === undefined ? '' : ' in this organization';
    return { refusal: { claim: names.ownerId, message: `${names.ownerId} matches no CI trust policy${where}` } };
  }
  const depths = mine.map((policy) => ({ policy, depth: depthOf(policy, claims) }));
  const matched = depths.filter(({ depth }) => depth === CHECKS.length).map(({ policy }) => policy);
  const organizations = new Set(matched.map((policy) => policy.organizationId));
  if (organizations.size > 1) {
    return {
      refusal: {
        claim: 'organization',
        message:
          'This CI token matches CI trust policies of several organizations: pass organization (the id of the one to publish to).',
      },
    };
  }
  const [policy] = matched;
  if (policy !== undefined) return { policy };
  // The first candidate with the greatest depth: the one the person most likely meant.
  const closest = depths.reduce((best, next) => (next.depth > best.depth ? next : best));
  const [compared] = CHECKS[closest.depth]!;
  const claim = names[compared];
  return { refusal: { claim, message: `${claim} does not match policy '${closest.policy.name}'` } };
}
