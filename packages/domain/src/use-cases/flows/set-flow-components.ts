import type { Flow } from '../../entities/flow.js';
import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { validateFlowComponents } from './flow-components.js';
import { auditNote } from '../access/audit-note.js';
import { loadManagedFlow } from './load-managed-flow.js';

/** Replaces the flow's ordered component list. */
export async function setFlowComponents(
  input: { actor: Actor; flowId: string; componentIds: readonly string[] },
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<Flow> {
  const flow = await loadManagedFlow(input, 'change flows', deps);
  const componentIds = await validateFlowComponents(flow.organizationId, input.componentIds, deps);
  const updated = await deps.repos.flows.setComponents(flow.id, componentIds, deps.clock.now(), auditNote(input.actor, deps));
  if (!updated) throw notFound('Flow', input.flowId);
  return updated;
}
