import { invalidInput } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { isUuid } from '../../rules/ids.js';
import { Limits } from '../../rules/limits.js';

/** A flow lists components of its own organization only, each at most once. */
export async function validateFlowComponents(
  organizationId: string,
  componentIds: readonly string[],
  deps: Pick<DomainDeps, 'repos'>,
): Promise<string[]> {
  if (componentIds.length > Limits.flowComponentsMax) {
    throw invalidInput('componentIds', `a flow holds at most ${Limits.flowComponentsMax} components.`);
  }
  if (new Set(componentIds).size !== componentIds.length) {
    throw invalidInput('componentIds', 'a component may appear only once in a flow.');
  }
  for (const id of componentIds) {
    const component = isUuid(id) ? await deps.repos.components.findById(id) : null;
    if (component?.organizationId !== organizationId) {
      throw invalidInput('componentIds', `component "${id}" was not found in this organization.`);
    }
  }
  return [...componentIds];
}
