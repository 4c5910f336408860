import { LRUCache } from 'lru-cache';
import type { CachedResponse } from './cached-response.js';

interface Load {
  readonly promise: Promise<CachedResponse>;
  /** Ids the response will depend on, when known before loading (null: any change counts). */
  readonly dependsOn: ReadonlySet<string> | null;
  /** Set when a change arrived while loading: the result may predate it. */
  invalidated: boolean;
}

/**
 * Serialized responses by key, bounded in bytes (LRU), with:
 * - single flight: concurrent misses of one key share one load;
 * - invalidation by entity id (a component or a flow): entries are marked
 *   stale, not dropped, so they can still be served if the reload fails
 *   (stale-if-error);
 * - no lost invalidation: a load that overlaps a change to what it reads is
 *   stored already stale, so the next request reloads.
 * With `maxBytes` 0 nothing is kept (loads are still shared).
 */
export class ResponseCache {
  private readonly entries: LRUCache<string, CachedResponse> | null;
  private readonly byDependency = new Map<string, Set<string>>();
  private readonly loads = new Map<string, Load>();
  /** Epoch ms of the last load that failed for a dependency (not a domain answer); 0 after a success. */
  private failedAt = 0;

  constructor(maxBytes: number) {
    this.entries =
      maxBytes > 0
        ? new LRUCache<string, CachedResponse>({
            maxSize: maxBytes,
            sizeCalculation: (entry) => entry.size,
            dispose: (entry, key) => this.unindex(key, entry),
          })
        : null;
  }

  get(key: string): CachedResponse | undefined {
    return this.entries?.get(key);
  }

  /** Runs `load` unless a load of `key` is under way, then stores its result. */
  fill(key: string, dependsOn: readonly string[] | null, load: () => Promise<CachedResponse>): Promise<CachedResponse> {
    const running = this.loads.get(key);
    if (running) return running.promise;
    const state: Load = {
      promise: load().then(
        (entry) => {
          this.loads.delete(key);
          if (state.invalidated) entry.freshUntil = 0;
          this.store(key, entry);
          return entry;
        },
        (error: unknown) => {
          this.loads.delete(key);
          throw error;
        },
      ),
      dependsOn: dependsOn === null ? null : new Set(dependsOn),
      invalidated: false,
    };
    this.loads.set(key, state);
    return state.promise;
  }

  /** A load failed because a dependency (database, object store) did not answer. */
  noteDependencyFailure(now: number): void {
    this.failedAt = now;
  }

  noteLoadSuccess(): void {
    this.failedAt = 0;
  }

  /** True while the last load failed for a dependency less than `windowMs` ago. */
  dependencyFailing(now: number, windowMs: number): boolean {
    return this.failedAt !== 0 && now - this.failedAt < windowMs;
  }

  /** A component or flow changed: everything built from it is stale. */
  invalidate(id: string): number {
    for (const load of this.loads.values()) {
      if (load.dependsOn === null || load.dependsOn.has(id)) load.invalidated = true;
    }
    const keys = this.byDependency.get(id);
    if (!keys || !this.entries) return 0;
    let marked = 0;
    for (const key of keys) {
      const entry = this.entries.peek(key);
      if (entry && entry.freshUntil !== 0) {
        entry.freshUntil = 0;
        marked += 1;
      }
    }
    return marked;
  }

  /** Changes may have been missed (the notification connection dropped): everything is stale. */
  invalidateAll(): void {
    for (const load of this.loads.values()) load.invalidated = true;
    if (!this.entries) return;
    for (const entry of this.entries.values()) entry.freshUntil = 0;
  }

  private store(key: string, entry: CachedResponse): void {
    if (!this.entries) return;
    this.entries.set(key, entry);
    if (!this.entries.has(key)) return; // larger than the whole cache
    for (const id of entry.dependsOn) {
      let keys = this.byDependency.get(id);
      if (!keys) this.byDependency.set(id, (keys = new Set()));
      keys.add(key);
    }
  }

  private unindex(key: string, entry: CachedResponse): void {
    for (const id of entry.dependsOn) {
      const keys = this.byDependency.get(id);
      if (!keys) continue;
      keys.delete(key);
      if (keys.size === 0) this.byDependency.delete(id);
    }
  }
}
