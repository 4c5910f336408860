import { MAX_DECLINE_REASON_LENGTH, type ReleaseRequest } from '../../entities/release-request.js';
import type { Actor } from '../../entities/user.js';
import { invalidInput } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { decideReleaseRequest } from './decide-release-request.js';

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
  const { request } = await decideReleaseRequest(
    input,
    'decline release requests',
    deps,
    (pending, { now, audit }) => {
      const reason = input.reason.trim();
      if (reason === '')
        throw invalidInput('reason', 'say why the request is declined; the requester reads it.');
      if (reason.length > MAX_DECLINE_REASON_LENGTH)
        throw invalidInput(
          'reason',
          `at most ${MAX_DECLINE_REASON_LENGTH} characters; shorten it.`,
        );
      return deps.repos.releaseRequests.decline({
        requestId: pending.id,
        declinedBy: input.actor.userId,
        reason,
        now,
        audit,
      });
    },
  );
  return { request };
}
