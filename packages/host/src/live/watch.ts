import type { Source } from '../source.js';
import { createFeed, POLL_MS } from './feed.js';

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

/**
 * A source's live updates: the change stream, plus a poll when a preview key is sent (the stream
 * does not announce private previews); a static export has no stream, only the poll.
 */
export function watchSource(source: Source, onChange: () => void): () => void {
  const unwatch = source.missing ? () => undefined : watch(source.base, source.watch, onChange);
  if (!source.missing && Object.keys(source.headers).length === 0) return unwatch;
  const timer = setInterval(onChange, POLL_MS);
  return () => {
    unwatch();
    clearInterval(timer);
  };
}
