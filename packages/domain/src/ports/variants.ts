import type { Variant } from '../entities/component.js';

export interface Variants {
  findById(id: string): Promise<Variant | null>;
  findLatest(componentId: string): Promise<Variant | null>;
  /** Newest first (highest sequence first). */
  listForComponent(componentId: string, options: { limit: number; beforeSequence?: number }): Promise<Variant[]>;
}
