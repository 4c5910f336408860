import type { Component, Variant } from '../../entities/component.js';
import type { Actor } from '../../entities/user.js';
import { invalidInput } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Limits } from '../../rules/limits.js';
import { loadAccessibleComponent } from '../access/load-accessible-component.js';
import { pagingNumber } from '../paging/paging-number.js';

export interface VariantListing {
  /** The component the variants belong to (read for the access check anyway). */
  readonly component: Component;
  readonly variants: { variant: Variant; environments: string[] }[];
  /** Pass back as `beforeSequence` for older variants; null when there are none. */
  readonly nextBeforeSequence: number | null;
}

/** A component's variants, newest first, each with the environments it is live in. */
export async function listVariants(
  input: { actor: Actor; componentId: string; limit?: number | undefined; beforeSequence?: number | undefined },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<VariantListing> {
  const limit = pagingNumber('limit', input.limit ?? Limits.listDefault, Limits.listMax);
  if (input.beforeSequence !== undefined && (!Number.isInteger(input.beforeSequence) || input.beforeSequence < 1)) {
    throw invalidInput('beforeSequence', 'must be a positive whole number.');
  }
  const component = await loadAccessibleComponent(input.actor, input.componentId, deps);
  const [rows, releases] = await Promise.all([
    deps.repos.variants.listForComponent(component.id, {
      limit: limit + 1,
      ...(input.beforeSequence !== undefined ? { beforeSequence: input.beforeSequence } : {}),
    }),
    deps.repos.releases.listCurrent(component.id),
  ]);
  const page = rows.slice(0, limit);
  const variants = page.map((variant) => ({
    variant,
    environments: releases.filter((r) => r.variantId === variant.id).map((r) => r.environmentName),
  }));
  const last = page.at(-1);
  return { component, variants, nextBeforeSequence: rows.length > limit && last ? last.sequence : null };
}
