import type { Flow } from '../../entities/flow.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Permission } from '../../rules/roles.js';
import { requirePermission } from '../access/require-permission.js';
import { loadAccessibleFlow } from './load-accessible-flow.js';

/**
 * The flow, for a role that manages the setup (Permission.ManageSetup): changing a flow changes
 * what hosts render. Every member reads flows; another organization's flow is NOT_FOUND first.
 */
export async function loadManagedFlow(
  { actor, flowId }: { actor: Actor; flowId: string },
  what: string,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Flow> {
  const flow = await loadAccessibleFlow(actor, flowId, deps);
  await requirePermission(actor, flow.organizationId, Permission.ManageSetup, what, deps);
  return flow;
}
