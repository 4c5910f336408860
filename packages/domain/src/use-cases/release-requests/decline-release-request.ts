import { MAX_DECLINE_REASON_LENGTH, type ReleaseRequest } from '../../entities/release-request.js';
import type { Actor } from '../../entities/user.js';
import { invalidInput, notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Permission } from '../../rules/roles.js';
import { requirePermission } from '../access/require-permission.js';
import { alreadyDecided, loadReleaseRequest } from './load-release-request.js';
import { auditNote } from '../access/audit-note.js';

/**
 * An owner or admin declines a pending release request with a reason the requester reads
 * (required, trimmed, at most MAX_DECLINE_REASON_LENGTH characters). Nothing is released.
 * Racing another decision: one wins, the other gets RELEASE_REQUEST_DECIDED.
 */
export async function declineReleaseRequest(
  input: { actor: Actor; requestId: string; reason: string },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<{ request: ReleaseRequest }> {
  // Access first: another organization's id answers NOT_FOUND whatever the reason.
  const request = await loadReleaseRequest(input.actor, input.requestId, deps);
  await requirePermission(
    input.actor,
    request.organizationId,
    Permission.PublishProtected,
    'decline release requests',
    deps,
  );
  const reason = input.reason.trim();
  if (reason === '')
    throw invalidInput('reason', 'say why the request is declined; the requester reads it.');
  if (reason.length > MAX_DECLINE_REASON_LENGTH)
    throw invalidInput('reason', `at most ${MAX_DECLINE_REASON_LENGTH} characters; shorten it.`);
  const result = await deps.repos.releaseRequests.decline({
    requestId: request.id,
    declinedBy: input.actor.userId,
    reason,
    now: deps.clock.now(),
    audit: auditNote(input.actor, deps),
  });
  if (result.outcome === 'missing') throw notFound('Release request', input.requestId);
  if (result.outcome === 'already-decided') throw await alreadyDecided(result.request, deps);
  return { request: result.request };
}
