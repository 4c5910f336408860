import type { ReleaseRequest } from '../../entities/release-request.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { isUuid } from '../../rules/ids.js';
import { findActingMembership } from '../access/require-membership.js';

/** The request, if it belongs to one of the actor's organizations; otherwise NOT_FOUND, as for unknown ids. */
export async function loadReleaseRequest(
  actor: Actor,
  requestId: string,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<ReleaseRequest> {
  const request = isUuid(requestId) ? await deps.repos.releaseRequests.findById(requestId) : null;
  const membership = request && (await findActingMembership(actor, request.organizationId, deps));
  if (!request || !membership) throw notFound('Release request', requestId);
  return request;
}

/** RELEASE_REQUEST_DECIDED: someone decided first; says who, when and how, so nobody acts twice. */
export async function alreadyDecided(
  request: ReleaseRequest,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<DomainError> {
  const [decider] = request.decidedBy ? await deps.repos.users.findByIds([request.decidedBy]) : [];
  const who = decider?.email ?? 'someone who has since left';
  const when = request.decidedAt?.toISOString() ?? 'an earlier time';
  return new DomainError(
    ErrorCode.ReleaseRequestDecided,
    `This release request was already ${request.state} by ${who} at ${when}; nothing changed. Reload to see its state.`,
    { state: request.state, decidedBy: request.decidedBy },
  );
}
