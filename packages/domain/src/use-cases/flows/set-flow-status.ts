import type { Flow, FlowStatus } from '../../entities/flow.js';
import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { loadAccessibleFlow } from './load-accessible-flow.js';

/** Publishing makes the flow visible on /flow; back to draft hides it again. */
export async function setFlowStatus(
  input: { actor: Actor; flowId: string; status: FlowStatus },
  deps: Pick<DomainDeps, 'repos' | 'clock'>,
): Promise<Flow> {
  const flow = await loadAccessibleFlow(input.actor, input.flowId, deps);
  const updated = await deps.repos.flows.setStatus(flow.id, input.status, deps.clock.now());
  if (!updated) throw notFound('Flow', input.flowId);
  return updated;
}
