import type { ReleaseRequest } from '../../entities/release-request.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { can, Permission } from '../../rules/roles.js';
import { loadAccessibleComponent } from '../access/load-accessible-component.js';
import { requireMembership } from '../access/require-membership.js';

export interface ReleaseRequestList {
  readonly requests: readonly ReleaseRequest[];
  /** Email by user id, for everyone who asked or decided (a departed account is missing). */
  readonly people: Readonly<Record<string, string>>;
  /** Whether the actor may approve and decline (owners and admins). */
  readonly canDecide: boolean;
}

/** How many requests the organization's list shows: every pending one comes first. */
export const RELEASE_REQUESTS_LISTED = 100;

/** The organization's release requests: pending first (oldest first), then recent decisions. Any member reads them. */
export async function listReleaseRequests(
  input: { actor: Actor; organizationId: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<ReleaseRequestList> {
  const membership = await requireMembership(input.actor, input.organizationId, deps);
  const requests = await deps.repos.releaseRequests.listForOrganization(input.organizationId, {
    limit: RELEASE_REQUESTS_LISTED,
  });
  return withPeople(requests, can(membership.role, Permission.PublishProtected), deps);
}

/** A component's pending release requests, for its page. */
export async function listComponentReleaseRequests(
  input: { actor: Actor; componentId: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<ReleaseRequestList> {
  const component = await loadAccessibleComponent(input.actor, input.componentId, deps);
  const membership = await requireMembership(input.actor, component.organizationId, deps);
  const requests = await deps.repos.releaseRequests.listPending(component.id);
  return withPeople(requests, can(membership.role, Permission.PublishProtected), deps);
}

async function withPeople(
  requests: readonly ReleaseRequest[],
  canDecide: boolean,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<ReleaseRequestList> {
  const ids = [...new Set(requests.flatMap((r) => [r.requestedBy, r.decidedBy ?? []].flat()))];
  const users = ids.length === 0 ? [] : await deps.repos.users.findByIds(ids);
  return { requests, people: Object.fromEntries(users.map((u) => [u.id, u.email])), canDecide };
}
