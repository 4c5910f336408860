import type { ReleaseRequest } from '../../entities/release-request.js';
import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import type { ReleaseRequestDecision } from '../../ports/release-requests.js';
import { Permission } from '../../rules/roles.js';
import { auditedChange } from '../access/audited-change.js';
import type { ChangeStamp } from '../access/change-stamp.js';
import { alreadyDecided, loadReleaseRequest } from './load-release-request.js';

/**
 * A decision on a release request of one of the actor's organizations (NOT_FOUND otherwise first),
 * by a role that publishes to protected environments (Permission.PublishProtected; `what` ends the
 * FORBIDDEN message). `decide` writes it; a request gone meanwhile is NOT_FOUND, and one another
 * decision won is RELEASE_REQUEST_DECIDED naming who decided.
 */
export async function decideReleaseRequest<Done extends { readonly outcome: string }>(
  input: { actor: Actor; requestId: string },
  what: string,
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
  decide: (request: ReleaseRequest, stamp: ChangeStamp) => Promise<ReleaseRequestDecision<Done>>,
): Promise<Done> {
  const request = await loadReleaseRequest(input.actor, input.requestId, deps);
  const scope = { actor: input.actor, organizationId: request.organizationId };
  const access = { permission: Permission.PublishProtected, what };
  return auditedChange(scope, access, deps, async (stamp) => {
    const result = await decide(request, stamp);
    if (!isRefusal(result)) return result;
    if (result.outcome === 'missing') throw notFound('Release request', input.requestId);
    throw await alreadyDecided(result.request, deps);
  });
}

/** The two answers every decision can get besides its own. */
type Refusal = ReleaseRequestDecision<never>;

const isRefusal = <Done extends { readonly outcome: string }>(
  result: ReleaseRequestDecision<Done>,
): result is Refusal => result.outcome === 'missing' || result.outcome === 'already-decided';
