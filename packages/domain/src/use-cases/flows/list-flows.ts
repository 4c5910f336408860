import type { Flow } from '../../entities/flow.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { requireMembership } from '../access/require-membership.js';
import { loadAccessibleFlow } from './load-accessible-flow.js';

/** The organization's flows (drafts and published), ordered by name. */
export async function listFlows(
  input: { actor: Actor; organizationId: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Flow[]> {
  await requireMembership(input.actor, input.organizationId, deps);
  return deps.repos.flows.listForOrganization(input.organizationId);
}

/** One flow of the actor's organizations (drafts included); others are "not found". */
export async function getFlow(input: { actor: Actor; flowId: string }, deps: Pick<DomainDeps, 'repos'>): Promise<Flow> {
  return loadAccessibleFlow(input.actor, input.flowId, deps);
}
