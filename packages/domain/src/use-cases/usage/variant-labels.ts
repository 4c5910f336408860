import { NO_VARIANT } from '../../entities/usage.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Limits } from '../../rules/limits.js';

export interface VariantLabels {
  /** "v<sequence>"; NO_VARIANT "no version"; an id that is no variant of the component keeps a short form of itself. */
  label(variantId: string): string;
  sequence(variantId: string): number | undefined;
}

/**
 * The sequences of the component's variants in `variantIds`: its latest page of variants in
 * one read, older ones one by one.
 */
export async function variantLabels(
  componentId: string,
  variantIds: Iterable<string>,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<VariantLabels> {
  const wanted = new Set([...variantIds].filter((id) => id !== NO_VARIANT));
  const sequences = new Map<string, number>();
  if (wanted.size > 0) {
    const latest = await deps.repos.variants.listForComponent(componentId, { limit: Limits.listMax });
    for (const variant of latest) if (wanted.has(variant.id)) sequences.set(variant.id, variant.sequence);
    const missing = [...wanted].filter((id) => !sequences.has(id));
    const older = await Promise.all(missing.map((id) => deps.repos.variants.findById(id)));
    for (const variant of older) {
      if (variant && variant.componentId === componentId) sequences.set(variant.id, variant.sequence);
    }
  }
  return {
    label: (id) => {
      if (id === NO_VARIANT) return 'no version';
      const sequence = sequences.get(id);
      return sequence === undefined ? id.slice(0, 8) : `v${sequence}`;
    },
    sequence: (id) => sequences.get(id),
  };
}
