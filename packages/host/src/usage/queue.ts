import type { UsageEvent } from './event.js';

/*
 * One queue per page for every mounted component's usage events, sent in batches,
 * one destination per batch. Events of mounts with analytics "consent" wait in
 * memory (bounded) until the host calls consent(). A batch goes out with a
 * keepalive fetch while the keepalive bodies in flight stay under the browser's
 * limit, else as a beacon; what neither takes, and what a send loses, is dropped and
 * counted (droppedEvents()). The page listeners and the timer exist only while events wait.
 */

const BATCH_EVENTS = 50;
const BATCH_CHARS = 16_384;
const BATCH_MS = 10_000;
/** What browsers let the keepalive requests of one page hold in flight. */
const KEEPALIVE_BYTES = 65_536;
const HELD_EVENTS = 200;

/** The events to send, by destination. */
let queue: Record<string, UsageEvent[]> = {};
let count = 0;
let chars = 0;
let held: [url: string, event: UsageEvent][] = [];
let granted: boolean | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;
let inFlight = 0;
let dropped = 0;

const onHidden = (): void => {
  if (document.visibilityState === 'hidden') flush();
};

function listen(on: boolean): void {
  const method = on ? 'addEventListener' : 'removeEventListener';
  window[method]('pagehide', flush);
  document[method]('visibilitychange', onHidden);
}

function send(url: string, events: UsageEvent[]): void {
  const body = JSON.stringify({ v: 1, events });
  const size = new Blob([body]).size;
  const lost = (): number => (dropped += events.length);
  if (inFlight + size <= KEEPALIVE_BYTES) {
    inFlight += size;
    // A string body goes as text/plain;charset=UTF-8: no CORS preflight. Never the delivery API's cookies.
    fetch(url, { method: 'POST', body, keepalive: true, credentials: 'omit' })
      .then((response) => response.ok || lost(), lost)
      .finally(() => (inFlight -= size));
  } else if (!navigator.sendBeacon?.(url, body)) lost();
}

/** Sends every queued event now, one batch per destination. */
export function flush(): void {
  if (!count) return;
  clearTimeout(timer);
  listen(false);
  const batches = queue;
  queue = {};
  count = chars = 0;
  for (const url in batches) send(url, batches[url]!);
}

/** Queues `event` for `url`; with `askConsent`, held until the host's consent(true) (dropped after consent(false)). */
export function enqueue(url: string, event: UsageEvent, askConsent?: boolean): void {
  if (askConsent && !granted) {
    if (granted === false) return;
    if (held.length < HELD_EVENTS) held.push([url, event]);
    else dropped++;
    return;
  }
  if (!count++) {
    listen(true);
    timer = setTimeout(flush, BATCH_MS);
  }
  (queue[url] ??= []).push(event);
  chars += JSON.stringify(event).length;
  if (count >= BATCH_EVENTS || chars >= BATCH_CHARS) flush();
}

/**
 * The page's answer for components mounted with analytics "consent": `true` sends their
 * held events at once and later ones as any, `false` discards the held ones and sends none after.
 */
export function consent(given: boolean): void {
  granted = given === true;
  const taken = held;
  held = [];
  if (granted) {
    for (const [url, event] of taken) enqueue(url, event);
    flush();
  }
}

/** Events lost on this page so far: held past the bound, refused by the browser or the server, or failed in flight. */
export const droppedEvents = (): number => dropped;
