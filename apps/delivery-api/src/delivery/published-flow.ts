import type { Component } from '@cp/domain';
import { ErrorCode, getPublishedFlow, isDomainError, resolveVariant } from '@cp/domain';
import { consumeVariant, type ConsumeVariant, type ReadDeps } from '@cp/consume';
import type { UserFlow } from '../api/response-schemas.js';

export interface FlowTarget {
  readonly flowId: string;
  readonly resolveComponents: boolean;
}

/**
 * The /flow body (IUserFlow). With `resolveComponents`, each component carries
 * the variant released to `environment`, or none: one unreleased component must
 * not take the whole flow down.
 */
export async function loadFlowResponse(
  target: FlowTarget,
  environment: string,
  deps: ReadDeps,
): Promise<{ body: UserFlow; componentIds: string[] }> {
  const { flow, components } = await getPublishedFlow({ flowId: target.flowId }, deps);
  const entries = await Promise.all(
    components.map(async (component) => ({
      id: component.id,
      type: {
        id: component.id,
        name: component.name,
        organizationId: component.organizationId,
        description: component.description,
        tags: [...component.tags],
      },
      ...(target.resolveComponents ? { consume_variant: await releasedVariants(component, environment, deps) } : {}),
    })),
  );
  return {
    body: { item: { id: flow.id, name: flow.name, organizationId: flow.organizationId, components: entries } },
    componentIds: components.map((component) => component.id),
  };
}

async function releasedVariants(component: Component, environment: string, deps: ReadDeps): Promise<ConsumeVariant[]> {
  try {
    const { variant } = await resolveVariant(component, environment, deps);
    return variant ? [await consumeVariant(variant, deps)] : [];
  } catch (error) {
    if (isDomainError(error) && error.code === ErrorCode.NotFound) return [];
    throw error;
  }
}
