import type { Component } from '../../entities/component.js';
import { FlowStatus, type Flow } from '../../entities/flow.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { isUuid } from '../../rules/ids.js';

/** Public read for the deprecated /flow endpoint: drafts are as unknown as made-up ids. */
export async function getPublishedFlow(
  { flowId }: { flowId: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<{ flow: Flow; components: Component[] }> {
  const flow = isUuid(flowId) ? await deps.repos.flows.findById(flowId) : null;
  if (flow?.status !== FlowStatus.Published) throw notFound('Flow', flowId);
  const components = await Promise.all(flow.componentIds.map((id) => deps.repos.components.findById(id)));
  return { flow, components: components.filter((c): c is Component => c !== null) };
}
