import type { ReleaseEvent } from '../../entities/release.js';
import type { ReleaseRequest } from '../../entities/release-request.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { decideReleaseRequest } from './decide-release-request.js';

/**
 * An owner or admin approves a pending release request: the request's variant is released to
 * its environment, released by the approver, in the same transaction that marks the request
 * approved (Permission.PublishProtected). Of two decisions racing, one wins; the other gets
 * RELEASE_REQUEST_DECIDED naming who decided. A newer variant uploaded meanwhile changes nothing:
 * the request names its variant.
 */
export async function approveReleaseRequest(
  input: { actor: Actor; requestId: string },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<{ request: ReleaseRequest; event: ReleaseEvent }> {
  const { request, event } = await decideReleaseRequest(
    input,
    'approve release requests',
    deps,
    (pending, { now, audit }) =>
      deps.repos.releaseRequests.approve({
        requestId: pending.id,
        approvedBy: input.actor.userId,
        eventId: deps.ids.newId(),
        now,
        audit,
        publishAuditId: deps.ids.newId(),
      }),
  );
  return { request, event };
}
