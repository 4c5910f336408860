/*
 * The script injected first into the frame's document. It runs in the frame
 * (an opaque origin), so it is self-contained: the build keeps its minified
 * source and `FRAME_BOOTSTRAP` inlines it into the srcdoc.
 *
 * Frame -> host, over the port: `{ a, p }` a cpSend, `{ h, l }` the measured
 * height (`l` once the document has loaded, `r` once data was received). Host -> frame: `{ d }` new data.
 */
function bootstrap(): void {
  const globals = window as unknown as Record<string, unknown>;
  const { port1, port2 } = new MessageChannel();
  const root = document.documentElement;
  let receive: unknown;
  let data: unknown;
  let hasData = false;
  let queued = false;
  let lastHeight = -1;
  const deliver = (): void => {
    queued = false;
    if (hasData && typeof receive === 'function') (receive as (data: unknown) => void)(data);
  };
  globals.cpSend = (action: unknown, payload: unknown): void => {
    if (typeof action !== 'string' || !action) throw new TypeError('cpSend(action, payload): action must be a non-empty string');
    port1.postMessage({ a: action, p: payload });
  };
  globals.cpRoot = document;
  // Called in a microtask after the assignment, so the rest of the defining script runs first.
  Object.defineProperty(globals, 'cpReceive', {
    get: () => receive,
    set(next: unknown) {
      receive = next;
      if (!queued) queueMicrotask(deliver);
      queued = true;
    },
  });
  port1.onmessage = ({ data: message }: MessageEvent<{ d?: unknown } | null>) => {
    if (message && 'd' in message) {
      data = message.d;
      hasData = true;
      deliver();
      // `r`: the data was handed over (or kept for a later cpReceive); the height is measured after it.
      port1.postMessage({ h: (lastHeight = height()), r: 1 });
    }
  };
  // getBoundingClientRect forces layout, so `load` reports a height even while the frame's rendering is throttled (once laid out at all).
  const height = (): number => Math.ceil(root.getBoundingClientRect().height);
  const size = (loaded?: 1): void => {
    const now = height();
    if (now !== lastHeight || loaded) port1.postMessage({ h: (lastHeight = now), l: loaded });
  };
  // `l` goes once: at load when the document measures, else at its first layout.
  let loadReported = false;
  let loadWaiting = false;
  const reportLoad = (): void => {
    loadWaiting = false;
    if (loadReported) return;
    loadReported = true;
    size(1);
  };
  new ResizeObserver(() => (loadWaiting ? reportLoad() : size())).observe(root);
  // Chromium may fire load before the frame's first layout (everything then measures 0, content or not):
  // measure again every few milliseconds until it does (or the observer reports it), and after a
  // while take 0 as the answer: a frame that is not rendered (offscreen) or really empty.
  const measureLoad = (triesLeft: number): void => {
    if (loadReported) return;
    if (height() > 0 || triesLeft === 0) return reportLoad();
    loadWaiting = true;
    setTimeout(() => measureLoad(triesLeft - 1), 10);
  };
  addEventListener('load', () => measureLoad(25));
  parent.postMessage('cp:hello', '*', [port2]);
}

export const FRAME_HELLO = 'cp:hello';

/** The bootstrap as a script element's text. */
export const FRAME_BOOTSTRAP = `(${bootstrap.toString()})()`;
