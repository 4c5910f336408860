import type { ReleaseEvent } from '../../entities/release.js';
import type { ReleaseRequest } from '../../entities/release-request.js';
import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Permission } from '../../rules/roles.js';
import { requirePermission } from '../access/require-permission.js';
import { alreadyDecided, loadReleaseRequest } from './load-release-request.js';
import { auditNote } from '../access/audit-note.js';

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
  const request = await loadReleaseRequest(input.actor, input.requestId, deps);
  await requirePermission(
    input.actor,
    request.organizationId,
    Permission.PublishProtected,
    'approve release requests',
    deps,
  );
  const result = await deps.repos.releaseRequests.approve({
    requestId: request.id,
    approvedBy: input.actor.userId,
    eventId: deps.ids.newId(),
    now: deps.clock.now(),
    audit: auditNote(input.actor, deps),
    publishAuditId: deps.ids.newId(),
  });
  if (result.outcome === 'missing') throw notFound('Release request', input.requestId);
  if (result.outcome === 'already-decided') throw await alreadyDecided(result.request, deps);
  return { request: result.request, event: result.event };
}
