import type { Component, Variant } from '../../entities/component.js';
import type { Environment } from '../../entities/release.js';
import type { ReleaseRequest } from '../../entities/release-request.js';
import type { ReleaseRequestPlan } from '../../entities/release-request-plan.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { listApprovers, type Approvers } from './list-approvers.js';
import { auditNote } from '../access/audit-note.js';

export interface RequestedRelease {
  readonly outcome: 'requested';
  /** The pending request: this one, or the one already pending for the component and environment. */
  readonly request: ReleaseRequest;
  /** False when a request was already pending there: it is answered unchanged. */
  readonly created: boolean;
  /** Who can approve it. */
  readonly approvers: Approvers;
}

/**
 * A member's publish (or experience publish, or rollout start: `plan`) to a protected environment: a pending release request for an owner or
 * admin to decide. One is pending per component and environment; asking again answers with that
 * one, unchanged (whoever asked, whatever variant): to ask for another variant, have it declined first.
 * The caller has checked the actor may publish (requirePublishPermission).
 */
export async function requestRelease(
  input: { actor: Actor; component: Component; environment: Environment; variant: Pick<Variant, 'id'>; plan?: ReleaseRequestPlan },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<RequestedRelease> {
  const { request, created } = await deps.repos.releaseRequests.create({
    id: deps.ids.newId(),
    componentId: input.component.id,
    environmentId: input.environment.id,
    variantId: input.variant.id,
    ...(input.plan ? { plan: input.plan } : {}),
    requestedBy: input.actor.userId,
    now: deps.clock.now(),
    audit: auditNote(input.actor, deps),
  });
  return {
    outcome: 'requested',
    request,
    created,
    approvers: await listApprovers(input.component.organizationId, deps),
  };
}
