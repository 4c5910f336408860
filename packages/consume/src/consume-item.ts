import type { Component, Repositories, Variant } from '@cp/domain';
import { resolvePublicVariant } from '@cp/domain';
import type { ConsumeResponse, ConsumeVariant } from './consume-schemas.js';
import type { VariantLoaders } from './variant-loaders.js';

export interface ConsumeTarget {
  /** Lower-cased UUID. */
  readonly componentId: string;
  /** Normalized environment name; null for the preview (latest variant). */
  readonly environment: string | null;
}

export interface ReadDeps {
  readonly repos: Repositories;
  readonly loaders: VariantLoaders;
}

export const variantName = (variant: Variant): string => `v${variant.sequence}`;

export async function consumeVariant(variant: Variant, deps: Pick<ReadDeps, 'loaders'>): Promise<ConsumeVariant> {
  return { id: variant.id, name: variantName(variant), loader: await deps.loaders.get(variant) };
}

export const consumeItemOf = (component: Pick<Component, 'id' | 'name' | 'organizationId'>, variants: ConsumeVariant[]) => ({
  id: component.id,
  name: component.name,
  organizationId: component.organizationId,
  consume_variant: variants,
});

/** The /consume body of one variant of a component: what the delivery API serves and the static export writes. */
export async function consumeResponseOf(
  component: Pick<Component, 'id' | 'name' | 'organizationId'>,
  variant: Variant,
  deps: Pick<ReadDeps, 'loaders'>,
): Promise<ConsumeResponse> {
  return { item: consumeItemOf(component, [await consumeVariant(variant, deps)]) };
}

export interface LoadedConsume {
  readonly response: ConsumeResponse;
  readonly organizationId: string;
  /** Only for the caller whose key opened it: never in a shared cache. */
  readonly privatePreview: boolean;
}

/**
 * The /consume body: the variant released to the environment, or the latest
 * (domain rule), which a private-previews organization shows only to a caller
 * presenting one of its preview keys.
 */
export async function loadConsumeResponse(target: ConsumeTarget, deps: ReadDeps, previewKey: string | null = null): Promise<LoadedConsume> {
  const { component, variant, privatePreview } = await resolvePublicVariant(
    { componentId: target.componentId, environment: target.environment ?? undefined, previewKey },
    deps,
  );
  return {
    response: await consumeResponseOf(component, variant, deps),
    organizationId: component.organizationId,
    privatePreview,
  };
}
