import type { Flow, FlowStatus } from '../../entities/flow.js';
import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { auditNote } from '../access/audit-note.js';
import { loadManagedFlow } from './load-managed-flow.js';

/** Publishing makes the flow visible on /flow; back to draft hides it again. */
export async function setFlowStatus(
  input: { actor: Actor; flowId: string; status: FlowStatus },
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<Flow> {
  const flow = await loadManagedFlow(input, 'publish or unpublish flows', deps);
  const updated = await deps.repos.flows.setStatus(flow.id, input.status, deps.clock.now(), auditNote(input.actor, deps));
  if (!updated) throw notFound('Flow', input.flowId);
  return updated;
}
