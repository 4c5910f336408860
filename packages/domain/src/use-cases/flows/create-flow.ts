import type { Flow } from '../../entities/flow.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { normalizeFlowName } from '../../rules/names.js';
import { Permission } from '../../rules/roles.js';
import { auditNote } from '../access/audit-note.js';
import { requirePermission } from '../access/require-permission.js';
import { validateFlowComponents } from './flow-components.js';

/** A new flow starts as a draft; /flow serves only published flows. Roles that manage the setup only. */
export async function createFlow(
  input: { actor: Actor; organizationId: string; name: string; componentIds?: readonly string[] },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<Flow> {
  const name = normalizeFlowName(input.name);
  await requirePermission(input.actor, input.organizationId, Permission.ManageSetup, 'create flows', deps);
  const componentIds = await validateFlowComponents(input.organizationId, input.componentIds ?? [], deps);
  return deps.repos.flows.create({
    id: deps.ids.newId(),
    organizationId: input.organizationId,
    name,
    componentIds,
    now: deps.clock.now(),
    audit: auditNote(input.actor, deps),
  });
}
