import type { Flow } from '../../entities/flow.js';
import type { Actor } from '../../entities/user.js';
import { invalidInput, notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Limits } from '../../rules/limits.js';
import { validateFlowComponents } from './flow-components.js';
import { auditNote } from '../access/audit-note.js';
import { loadManagedFlow } from './load-managed-flow.js';

/** One change to a flow's list, as a person makes it: add at the end, remove, move one place up or down. */
export const FLOW_EDITS = ['add', 'remove', 'up', 'down'] as const;
export type FlowEdit = (typeof FLOW_EDITS)[number];

const isFlowEdit = (value: string): value is FlowEdit => (FLOW_EDITS as readonly string[]).includes(value);
const shown = (value: string) => JSON.stringify(value.slice(0, 40));

/**
 * The list after `edit` of `componentId`. Pure. An edit that cannot apply is INVALID_INPUT:
 * an unknown edit, adding a component already there or to a full flow, removing or moving
 * one that is not there, moving the first up or the last down.
 */
export function applyFlowEdit(componentIds: readonly string[], edit: string, componentId: string): string[] {
  if (!isFlowEdit(edit)) throw invalidInput('op', `${shown(edit)} is not a change to a flow: use ${FLOW_EDITS.join(', ')}.`);
  const ids = [...componentIds];
  const at = ids.indexOf(componentId);
  if (edit === 'add') {
    if (at >= 0) throw invalidInput('component', `component ${shown(componentId)} is already in this flow.`);
    if (ids.length >= Limits.flowComponentsMax) throw invalidInput('componentIds', `a flow holds at most ${Limits.flowComponentsMax} components.`);
    return [...ids, componentId];
  }
  if (at < 0) throw invalidInput('component', `component ${shown(componentId)} is not in this flow (any more): reload the flow.`);
  if (edit === 'remove') return ids.filter((id) => id !== componentId);
  const to = edit === 'up' ? at - 1 : at + 1;
  if (to < 0) throw invalidInput('component', `component ${shown(componentId)} is already the first in this flow.`);
  if (to >= ids.length) throw invalidInput('component', `component ${shown(componentId)} is already the last in this flow.`);
  [ids[at], ids[to]] = [ids[to]!, ids[at]!];
  return ids;
}

/**
 * Applies one edit (applyFlowEdit) to the flow's list as it is when the change is written
 * (the repository's editComponents), not as it was read: two people editing one flow at
 * once both get their change. Only an added component can be foreign, so only it is checked.
 */
export async function editFlowComponents(
  input: { actor: Actor; flowId: string; edit: string; componentId: string },
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<Flow> {
  const flow = await loadManagedFlow(input, 'change flows', deps);
  applyFlowEdit(flow.componentIds, input.edit, input.componentId); // refuse early, before any write
  if (input.edit === 'add') await validateFlowComponents(flow.organizationId, [input.componentId], deps);
  const updated = await deps.repos.flows.editComponents(
    flow.id,
    (current) => applyFlowEdit(current, input.edit, input.componentId),
    deps.clock.now(),
    auditNote(input.actor, deps),
  );
  if (!updated) throw notFound('Flow', input.flowId);
  return updated;
}
