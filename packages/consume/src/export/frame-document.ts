import { createHash } from 'node:crypto';
import { FRAME_FOLDER } from './export-layout.js';

/** The frame document of iframe isolation (packages/host `dist/frame.html`), as the export writes it. */
export interface FrameDocument {
  /** Relative to the organization's folder: `host/frame/v1.<hash>.html`. */
  readonly path: string;
  readonly html: Uint8Array;
}

/**
 * Names the built frame document as the host SDK's build does (packages/host/scripts/build.mjs:
 * `v1.` and the first 16 hex digits of its SHA-256), so the SDK built with it finds it: the one
 * naming of the server side, for the export and the delivery API alike.
 */
export const frameDocumentOf = (html: Uint8Array): FrameDocument => ({
  path: `${FRAME_FOLDER}v1.${createHash('sha256').update(html).digest('hex').slice(0, 16)}.html`,
  html,
});
