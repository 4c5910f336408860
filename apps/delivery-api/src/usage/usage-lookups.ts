import type { Repositories } from '@cp/domain';
import { LRUCache } from 'lru-cache';

/** How long answers are kept: variants never change, environments do (renamed, removed, added). */
export const LOOKUP_TTL = {
  componentMs: 10 * 60_000,
  variantMs: 60 * 60_000,
  environmentsMs: 30_000,
  /** An id not found: a flood of made-up ids reaches the database once per id and this long. */
  unknownMs: 60_000,
} as const;

const MAX_ENTRIES = 20_000;

interface CachedLookup<T> {
  (key: string): Promise<T | null>;
  /** Whether `key` would be answered without a read (known, or being read already). */
  has(key: string): boolean;
}

/** A cache of lookups by key: concurrent misses share one read, answers of `null` are kept too (shorter), failures are not kept. */
function cachedLookup<T extends object>(load: (key: string) => Promise<T | null>, ttlMs: number): CachedLookup<T> {
  const cache = new LRUCache<string, Promise<T | null>>({ max: MAX_ENTRIES, ttl: ttlMs });
  const lookup = (key: string) => {
    const known = cache.get(key);
    if (known) return known;
    const loading = load(key);
    cache.set(key, loading);
    loading.then(
      (value) => {
        if (value === null && cache.get(key) === loading) cache.set(key, loading, { ttl: LOOKUP_TTL.unknownMs });
      },
      () => {
        if (cache.get(key) === loading) cache.delete(key);
      },
    );
    return loading;
  };
  return Object.assign(lookup, { has: (key: string) => cache.has(key) });
}

/** What the ingest checks an event against: is its component known, its environment one of its organization's, its variant the component's. */
export interface UsageLookups {
  /** The component's organization, or null when no such component exists. */
  organizationOf(componentId: string): Promise<string | null>;
  /** The environment names an organization has. */
  environmentsOf(organizationId: string): Promise<ReadonlySet<string>>;
  /** The component a variant belongs to, or null when no such variant exists. */
  componentOfVariant(variantId: string): Promise<string | null>;
  /** How many of these ids would be read from the database (not cached): what the lookup budget pays. */
  uncached(ids: { readonly components: readonly string[]; readonly variants: readonly string[] }): number;
}

export function createUsageLookups(repos: Pick<Repositories, 'components' | 'environments' | 'variants'>): UsageLookups {
  const components = cachedLookup(async (id) => {
    const component = await repos.components.findById(id);
    return component === null ? null : { organizationId: component.organizationId };
  }, LOOKUP_TTL.componentMs);
  const variants = cachedLookup(async (id) => {
    const variant = await repos.variants.findById(id);
    return variant === null ? null : { componentId: variant.componentId };
  }, LOOKUP_TTL.variantMs);
  const environments = cachedLookup(
    async (organizationId) => new Set((await repos.environments.listForOrganization(organizationId)).map((environment) => environment.name)),
    LOOKUP_TTL.environmentsMs,
  );
  return {
    organizationOf: async (id) => (await components(id))?.organizationId ?? null,
    environmentsOf: async (organizationId) => (await environments(organizationId)) ?? new Set(),
    componentOfVariant: async (id) => (await variants(id))?.componentId ?? null,
    uncached: (ids) => ids.components.filter((id) => !components.has(id)).length + ids.variants.filter((id) => !variants.has(id)).length,
  };
}
