import type { ReleaseRequest } from '../../entities/release-request.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import type { ApprovedPlan } from '../../ports/release-requests.js';
import { movedUsers, type MovedUsers } from '../../rules/experience-definition.js';
import { newSalt } from '../experiences/experience-target.js';
import { decideReleaseRequest } from './decide-release-request.js';

/**
 * An owner or admin approves a pending release request, and what it asks for happens in the
 * same transaction that marks it approved (Permission.PublishProtected), done by the approver:
 * its variant released, or (a protected environment's experience or rollout, `request.plan`)
 * the experience published or the rollout started. Of two decisions racing, one wins; the other
 * gets RELEASE_REQUEST_DECIDED naming who decided. A newer variant uploaded meanwhile changes
 * nothing: the request names its variant.
 */
export async function approveReleaseRequest(
  input: { actor: Actor; requestId: string },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<{ request: ReleaseRequest; applied: ApprovedPlan }> {
  const { request, applied } = await decideReleaseRequest(input, 'approve release requests', deps, async (pending, { now, audit }) =>
    deps.repos.releaseRequests.approve({
      requestId: pending.id,
      approvedBy: input.actor.userId,
      eventId: deps.ids.newId(),
      now,
      audit,
      publishAuditId: deps.ids.newId(),
      salt: newSalt(deps),
      rolloutId: deps.ids.newId(),
      moved: await movedByPlan(pending, deps),
    }),
  );
  return { request, applied };
}

/** An experience plan that keeps the salt reports the users it moves against what is live now. */
async function movedByPlan(request: ReleaseRequest, deps: Pick<DomainDeps, 'repos'>): Promise<MovedUsers[]> {
  if (request.plan.kind !== 'experience' || request.plan.phase !== 'keep') return [];
  const live = await deps.repos.experiences.findLive(request.componentId, request.environmentId);
  return live ? movedUsers(live.definition, request.plan.definition) : [];
}
