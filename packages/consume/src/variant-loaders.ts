import { createHash } from 'node:crypto';
import type { ObjectStore, Variant } from '@cp/domain';
import { LRUCache } from 'lru-cache';
import type { HtmlLoader } from './consume-schemas.js';
import { buildHtmlLoader } from './html-loader.js';

/** The stored object does not hash to the variant's recorded integrity: never serve it. */
export class IntegrityMismatchError extends Error {
  override readonly name = 'IntegrityMismatchError';
}

export interface VariantLoaders {
  /** The loader of one variant: read from object storage once, then from memory. */
  get(variant: Variant): Promise<HtmlLoader>;
}

/**
 * Variants are immutable, so their loaders are cached by variant id for as long
 * as memory allows; a publish or a tag edit then rebuilds a response from the
 * database alone. Bounded in bytes (HTML plus extracted blocks, counted twice
 * for UTF-16).
 */
export function createVariantLoaders(objects: ObjectStore, maxBytes: number): VariantLoaders {
  const cache = maxBytes > 0 ? new LRUCache<string, HtmlLoader>({ maxSize: maxBytes, sizeCalculation: loaderSize }) : null;
  return {
    async get(variant) {
      const cached = cache?.get(variant.id);
      if (cached) return cached;
      const bytes = await objects.read(variant.objectKey);
      const integrity = `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
      if (integrity !== variant.integrity) {
        throw new IntegrityMismatchError(
          `object ${variant.objectKey} of variant ${variant.id} does not match its recorded integrity`,
        );
      }
      // The upload check guaranteed strict UTF-8, so decoding round-trips the exact bytes.
      const loader = buildHtmlLoader(new TextDecoder().decode(bytes), integrity);
      if (cache && loaderSize(loader) <= maxBytes) cache.set(variant.id, loader);
      return loader;
    },
  };
}

const loaderSize = (loader: HtmlLoader): number => {
  let chars = loader.HTML.length;
  for (const block of [...loader.styles, ...loader.scripts]) chars += block.type === 'inline' ? block.content.length : block.url.length;
  return Math.max(1, chars * 2);
};
