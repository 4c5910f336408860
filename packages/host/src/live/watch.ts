import { createFeed } from './feed.js';

const feeds = new Map<string, ReturnType<typeof createFeed>>();

/**
 * Calls `onChange` whenever something one of `ids` names may have changed (a
 * change event, a reset, a reconnection, or a poll while streaming is unavailable).
 * Returns the unsubscribe function.
 */
export function watch(base: string, ids: readonly string[], onChange: () => void): () => void {
  let feed = feeds.get(base);
  if (!feed) {
    feed = createFeed(base, () => feeds.delete(base));
    feeds.set(base, feed);
  }
  return feed.watch(ids, onChange);
}
