import type { Variant } from '../entities/component.js';

export interface Variants {
  findById(id: string): Promise<Variant | null>;
  findLatest(componentId: string): Promise<Variant | null>;
  /** Those of `ids` that are variants of the component (others, and malformed ids, are left out), in any order. */
  findMany(componentId: string, ids: readonly string[]): Promise<Variant[]>;
  /** Newest first (highest sequence first). */
  listForComponent(componentId: string, options: { limit: number; beforeSequence?: number }): Promise<Variant[]>;
}
