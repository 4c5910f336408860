import type { Flow } from '../../entities/flow.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { normalizeFlowName } from '../../rules/names.js';
import { requireMembership } from '../access/require-membership.js';
import { validateFlowComponents } from './flow-components.js';

/** A new flow starts as a draft; /flow serves only published flows. */
export async function createFlow(
  input: { actor: Actor; organizationId: string; name: string; componentIds?: readonly string[] },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<Flow> {
  const name = normalizeFlowName(input.name);
  await requireMembership(input.actor, input.organizationId, deps);
  const componentIds = await validateFlowComponents(input.organizationId, input.componentIds ?? [], deps);
  return deps.repos.flows.create({
    id: deps.ids.newId(),
    organizationId: input.organizationId,
    name,
    componentIds,
    now: deps.clock.now(),
  });
}
