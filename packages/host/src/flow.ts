import { sdkError } from './problem.js';
import { variantIn, type Variant } from './variant.js';

/** @deprecated with `flowId`: the flow endpoint, with each component's released variant. */
export const flowUrl = (base: string, flowId: string): string =>
  `${base}/flow?${new URLSearchParams({ id: flowId, resolve: 'components' })}`;

/**
 * @deprecated with `flowId`: the variant of one component of a `/flow?resolve=components`
 * answer. A component missing from the flow is a 404 Component; one with nothing
 * released (`consume_variant: []`) a 404 Release, as `/consume` would answer.
 */
export function variantInFlow(body: unknown, flowId: string, componentId: string): Variant {
  const components = (body as { item?: { components?: unknown } } | null)?.item?.components;
  if (!Array.isArray(components)) throw sdkError('BAD_RESPONSE', 'The flow answer has no components.');
  const step = (components as { id?: unknown; consume_variant?: unknown[] }[]).find(
    (c) => typeof c?.id === 'string' && c.id.toLowerCase() === componentId.toLowerCase(),
  );
  if (!step) throw sdkError('NOT_FOUND', `Component ${componentId} is not in flow ${flowId}.`, 404, 'Component');
  if (step.consume_variant?.length === 0) {
    throw sdkError('NOT_FOUND', `Component ${componentId} of flow ${flowId} has nothing released to the flow's environment.`, 404, 'Release');
  }
  return variantIn(step.consume_variant);
}
