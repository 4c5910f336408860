import { backoff } from '../timing.js';

type Listener = () => void;

/** Polling interval while the stream is unavailable. */
export const POLL_MS = 5000;

/**
 * The change feed of one delivery API for the whole page: one EventSource on
 * `GET {base}/changes?ids=…` for every id watched, reopened (with `lastEventId`)
 * when the set of ids changes and closed when nothing is watched. While the
 * stream is missing or failing, every listener is called every few seconds
 * (conditional polling) and the stream is retried with backoff.
 */
export function createFeed(base: string, onEmpty: () => void) {
  const listeners = new Map<string, Set<Listener>>();
  let source: EventSource | null = null;
  let handlers: [string, (event: MessageEvent<string>) => void][] = [];
  let lastEventId = '';
  let failures = 0;
  let openTimer: ReturnType<typeof setTimeout> | undefined;
  let pollTimer: ReturnType<typeof setTimeout> | undefined;

  const notify = (id?: string): void => {
    const called = new Set<Listener>();
    for (const [key, set] of listeners) if (!id || key === id) for (const listener of set) called.add(listener);
    for (const listener of called) listener();
  };
  const poll = (): void => {
    pollTimer = setTimeout(() => {
      poll();
      notify();
    }, POLL_MS);
  };
  const stopPolling = (): void => {
    clearTimeout(pollTimer);
    pollTimer = undefined;
  };
  const close = (): void => {
    clearTimeout(openTimer);
    for (const [type, handler] of handlers) source?.removeEventListener(type, handler as EventListener);
    source?.close();
    source = null;
  };
  const remember = (event: MessageEvent<string>): void => {
    if (event.lastEventId) lastEventId = event.lastEventId;
  };

  function open(): void {
    close();
    if (typeof EventSource === 'undefined') {
      if (!pollTimer) poll();
      return;
    }
    const query = new URLSearchParams({ ids: [...listeners.keys()].join(',') });
    const resumed = !!lastEventId;
    if (resumed) query.set('lastEventId', lastEventId);
    const stream = (source = new EventSource(`${base}/changes?${query}`));
    let opened = false;
    handlers = [
      ['open', () => {
        failures = 0;
        // Without an event id to resume from, the server does not replay what changed before this stream
        // (while a component read its first variant, or since the last poll): every watcher looks once.
        if (pollTimer || (!opened && !resumed)) {
          stopPolling();
          notify();
        }
        opened = true;
      }],
      ['change', (event) => {
        remember(event);
        try {
          const { id } = JSON.parse(event.data) as { id?: unknown };
          if (typeof id === 'string') notify(id.toLowerCase());
        } catch {
          // A malformed event names nothing.
        }
      }],
      ['reset', (event) => {
        remember(event);
        notify();
      }],
      ['error', () => {
        if (!pollTimer) poll();
        // CLOSED: refused (an error status or not a stream); the browser retries only a dropped connection.
        if (stream.readyState === EventSource.CLOSED) openTimer = setTimeout(open, backoff(failures++, 2000, 60_000));
      }],
    ];
    for (const [type, handler] of handlers) stream.addEventListener(type, handler as EventListener);
  }

  const reopen = (): void => {
    clearTimeout(openTimer);
    // Later in the task: components mounted together share one reopening.
    openTimer = setTimeout(open);
  };

  return {
    watch(ids: readonly string[], listener: Listener): () => void {
      const keys = ids.map((id) => id.toLowerCase());
      let added = false;
      for (const key of keys) {
        const set = listeners.get(key) ?? new Set();
        if (!set.size) added = true;
        listeners.set(key, set.add(listener));
      }
      if (added) reopen();
      return () => {
        let removed = false;
        for (const key of keys) {
          const set = listeners.get(key);
          if (set?.delete(listener) && !set.size) {
            listeners.delete(key);
            removed = true;
          }
        }
        if (!listeners.size) {
          close();
          stopPolling();
          onEmpty();
        } else if (removed) reopen();
      };
    },
  };
}
