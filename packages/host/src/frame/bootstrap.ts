import { heightDamper } from './damping.js';
import { contentHeight, watchSize } from './measure.js';
import { checkLinkedFiles } from '../render/linked-integrity.js';
import { FRAME_HELLO, type FrameDocument } from './protocol.js';
import { digest } from '../usage/error-digest.js';

/*
 * The script of the frame document the delivery API serves (`/host/frame/v1.<hash>.html`),
 * bundled into it by the build. The frame is sandboxed without `allow-same-origin` (an
 * opaque origin, also forced by the document's own CSP `sandbox`). It hands the host a
 * MessageChannel port, then writes the component's HTML, received over that port, as its
 * document: the frame document's policy applies inside, not the host page's, so a host
 * with a strict CSP needs only `frame-src` and `connect-src` for the delivery API.
 * `document.open` keeps the window (these globals and the port) and drops its listeners,
 * so the ones the component's document needs are added after it.
 */

// Leading whitespace, comments and the doctype: the base element goes right after them, so standards mode holds.
const PROLOGUE = /^(\s*<!--[\s\S]*?-->)*\s*(<!doctype[^>]*>)?/i;

/** Relative URLs of the component resolve against the host page, as they did in a `srcdoc` frame; a component's own `<base>` wins. */
const withBase = (html: string, base: string): string =>
  /<base[\s>]/i.test(html) ? html : html.replace(PROLOGUE, (prologue) => `${prologue}<base href="${base.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`);

function start(): void {
  const globals = window as unknown as Record<string, unknown>;
  const { port1, port2 } = new MessageChannel();
  let written = false;
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
  // Measuring forces layout, so `load` reports a height even while the frame's rendering is throttled (once laid out at all).
  const damp = heightDamper();
  const height = (): number => damp(contentHeight(), innerHeight);
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
  // Chromium may fire load before the frame's first layout (everything then measures 0, content or not):
  // measure again every few milliseconds until it does (or the observer reports it), and after a
  // while take 0 as the answer: a frame that is not rendered (offscreen) or really empty.
  const measureLoad = (triesLeft: number): void => {
    if (loadReported) return;
    if (height() > 0 || triesLeft === 0) return reportLoad();
    loadWaiting = true;
    setTimeout(() => measureLoad(triesLeft - 1), 10);
  };
  const setData = (next: unknown): void => {
    data = next;
    hasData = true;
    deliver();
  };
  const write = ({ html, base, d }: FrameDocument): void => {
    // Before the component's scripts run, so a cpReceive they assign gets it at once.
    if (d !== undefined) setData(d);
    document.open();
    addEventListener('load', () => measureLoad(25));
    // Everything that runs here is the component's: its failures are reported as its own.
    addEventListener('error', (event) => port1.postMessage({ x: { n: 'uncaught', ...digest(event.error, event.message) } }));
    addEventListener('unhandledrejection', (event) => port1.postMessage({ x: { n: 'rejection', ...digest(event.reason) } }));
    document.write(withBase(html, base));
    document.close();
    watchSize(() => (loadWaiting ? reportLoad() : size()));
    // `r`: the data was handed over (or kept for a later cpReceive); the height is measured after it.
    if (d !== undefined) port1.postMessage({ h: (lastHeight = height()), r: 1 });
  };
  // Linked files are checked here, where they load (same origin, same cache), so the host page needs no connect-src for them.
  const checkThenWrite = (component: FrameDocument): void => {
    written = true;
    if (!component.c?.length) return write(component);
    void checkLinkedFiles(component.c).then((failure) => (failure ? port1.postMessage({ e: failure }) : write(component)));
  };
  port1.onmessage = ({ data: message }: MessageEvent<Partial<FrameDocument> | null>) => {
    if (!message || typeof message !== 'object') return;
    if (!written && typeof message.html === 'string' && typeof message.base === 'string') return checkThenWrite(message as FrameDocument);
    if (written && 'd' in message) {
      setData(message.d);
      port1.postMessage({ h: (lastHeight = height()), r: 1 });
    }
  };
  parent.postMessage(FRAME_HELLO, '*', [port2]);
}

// Opened by itself (not framed), the document waits for nobody. Framed without the sandbox attribute
// (its `sandbox` CSP is missing where a static export's object store serves it), it stays inert: a
// component never runs in the origin that serves the document.
if (parent !== window && origin === 'null') start();
