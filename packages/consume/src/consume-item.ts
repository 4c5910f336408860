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

export async function consumeVariant(variant: Variant, deps: ReadDeps): Promise<ConsumeVariant> {
  return { id: variant.id, name: variantName(variant), loader: await deps.loaders.get(variant) };
}

export const consumeItemOf = (component: Component, variants: ConsumeVariant[]) => ({
  id: component.id,
  name: component.name,
  organizationId: component.organizationId,
  consume_variant: variants,
});

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
    response: { item: consumeItemOf(component, [await consumeVariant(variant, deps)]) },
    organizationId: component.organizationId,
    privatePreview,
  };
}
