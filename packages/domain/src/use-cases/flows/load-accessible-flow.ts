import type { Flow } from '../../entities/flow.js';
import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { isUuid } from '../../rules/ids.js';
import { findActingMembership } from '../access/require-membership.js';

export async function loadAccessibleFlow(actor: Actor, flowId: string, deps: Pick<DomainDeps, 'repos'>): Promise<Flow> {
  const flow = isUuid(flowId) ? await deps.repos.flows.findById(flowId) : null;
  const member = flow && (await findActingMembership(actor, flow.organizationId, deps));
  if (!flow || !member) throw notFound('Flow', flowId);
  return flow;
}
