import type { Flow } from '../../entities/flow.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { normalizeFlowName } from '../../rules/names.js';
import { Permission } from '../../rules/roles.js';
import { auditedChange } from '../access/audited-change.js';
import { validateFlowComponents } from './flow-components.js';

/** A new flow starts as a draft; /flow serves only published flows. Roles that manage the setup only. */
export async function createFlow(
  input: { actor: Actor; organizationId: string; name: string; componentIds?: readonly string[] },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<Flow> {
  const name = normalizeFlowName(input.name);
  const access = { permission: Permission.ManageSetup, what: 'create flows' };
  return auditedChange(input, access, deps, async (stamp) => {
    const componentIds = await validateFlowComponents(input.organizationId, input.componentIds ?? [], deps);
    return deps.repos.flows.create({
      id: deps.ids.newId(),
      organizationId: input.organizationId,
      name,
      componentIds,
      ...stamp,
    });
  });
}
