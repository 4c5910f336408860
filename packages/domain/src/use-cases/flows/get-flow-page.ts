import type { ComponentSummary } from '../../entities/component.js';
import type { Flow } from '../../entities/flow.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Limits } from '../../rules/limits.js';
import { browseComponents } from '../components/browse-components.js';
import { loadAccessibleFlow } from './load-accessible-flow.js';

export interface FlowPage {
  readonly flow: Flow;
  /** The flow's components in order; `name` is null for one that no longer exists. */
  readonly components: { readonly id: string; readonly name: string | null }[];
  /** Components of the organization the flow does not hold yet (the most recently updated, one page). */
  readonly addable: ComponentSummary[];
}

/** One flow of the actor's organizations (drafts included) with what is needed to edit it. */
export async function getFlowPage(input: { actor: Actor; flowId: string }, deps: Pick<DomainDeps, 'repos'>): Promise<FlowPage> {
  const flow = await loadAccessibleFlow(input.actor, input.flowId, deps);
  const { components } = await browseComponents({ actor: input.actor, organizationId: flow.organizationId, pageSize: Limits.listMax }, deps);
  const names = new Map(components.map((c) => [c.id, c.name]));
  // The flow's components beyond that page (rare): read one by one.
  const missing = flow.componentIds.filter((id) => !names.has(id));
  for (const component of await Promise.all(missing.map((id) => deps.repos.components.findById(id)))) {
    if (component !== null) names.set(component.id, component.name);
  }
  return {
    flow,
    components: flow.componentIds.map((id) => ({ id, name: names.get(id) ?? null })),
    addable: components.filter((c) => !flow.componentIds.includes(c.id)),
  };
}
