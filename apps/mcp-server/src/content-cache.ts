import type { ObjectStore } from '@cp/domain';
import { LRUCache } from 'lru-cache';

/** Variant objects (`components/<id>/variants/<id>/index.html`) are written once and never overwritten. */
const IMMUTABLE = /^components\/[^/]+\/variants\/[^/]+\//;

/**
 * Reads of immutable variant objects served from memory (bounded in bytes):
 * get_component with content would otherwise pay one S3 round trip per call,
 * which the benchmark showed to dominate it. Staging objects (re-uploadable) are
 * never cached; `remove` and `copy` evict their key so a failed confirm leaves nothing behind.
 */
export function withContentCache(store: ObjectStore, maxBytes: number, onLookup: (result: 'hit' | 'miss') => void = () => undefined): ObjectStore {
  if (maxBytes <= 0) return store;
  const cache = new LRUCache<string, Uint8Array>({
    maxSize: maxBytes,
    sizeCalculation: (bytes) => Math.max(1, bytes.byteLength),
    fetchMethod: (key) => store.read(key),
  });
  return {
    presignPut: (key, options) => store.presignPut(key, options),
    stat: (key) => store.stat(key),
    async copy(sourceKey, targetKey) {
      cache.delete(targetKey);
      await store.copy(sourceKey, targetKey);
    },
    async read(key) {
      if (!IMMUTABLE.test(key)) return store.read(key);
      onLookup(cache.has(key) ? 'hit' : 'miss');
      const bytes = await cache.fetch(key);
      if (bytes === undefined) return store.read(key);
      return bytes;
    },
    async remove(key) {
      cache.delete(key);
      await store.remove(key);
    },
  };
}
