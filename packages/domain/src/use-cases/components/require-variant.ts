import type { Variant } from '../../entities/component.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { isUuid } from '../../rules/ids.js';

/**
 * The component's variant by id. Another component's variant is "not found", like an unknown or
 * malformed id. No access check: callers check the component first.
 */
export async function requireVariant(componentId: string, variantId: string, deps: Pick<DomainDeps, 'repos'>): Promise<Variant> {
  const variant = isUuid(variantId) ? await deps.repos.variants.findById(variantId) : null;
  if (!variant || variant.componentId !== componentId) throw notFound('Variant', variantId);
  return variant;
}
