/*
 * The messages between the SDK (host page) and the frame document
 * (`/host/frame/v1.<hash>.html`), one protocol version per path major (`v1`).
 *
 * Frame -> host: `cp:hello` by `parent.postMessage` with the frame's end of a
 * MessageChannel; then over the port `{ a, p }` a cpSend, `{ h }` the measured
 * height, `l: 1` once the component's document has loaded, `r: 1` once data was received,
 * `{ e }` instead of writing: a linked file failed its integrity check, `{ x }` an uncaught
 * error (`n: 'uncaught'`) or unhandled rejection (`n: 'rejection'`) of the component, digested.
 * Host -> frame, over the port: `{ html, base, d?, c? }` the component's document once
 * (`c`: linked files to check first), then `{ d }` new data.
 */

import type { LinkedFailure, LinkedFile } from '../render/linked-integrity.js';
import type { ErrorDigest } from '../usage/error-digest.js';

export const FRAME_HELLO = 'cp:hello';

export interface FrameDocument {
  /** The component's HTML, written into the frame as its document. */
  readonly html: string;
  /** The host page's base URL: relative URLs of the component resolve against it. */
  readonly base: string;
  readonly d?: unknown;
  /** Linked files that declare integrity: checked from the frame (where they load) before the document is written. */
  readonly c?: readonly LinkedFile[];
}

export type FrameMessage = {
  a?: unknown;
  p?: unknown;
  h?: unknown;
  l?: unknown;
  r?: unknown;
  e?: Partial<LinkedFailure>;
  x?: Partial<ErrorDigest & { n: unknown }>;
} | null;
