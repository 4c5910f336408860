import type { FrameDocument, FrameMessage } from '../frame/protocol.js';
import { actionRouter } from './contract.js';
import { frameHeight } from './frame-height.js';
import { linkedError } from './integrity.js';
import type { LinkedFile } from './linked-integrity.js';
import type { RenderOptions, Rendered } from './render.js';
import { frameIn } from './warm-frames.js';
import { errorOf } from '../usage/error-digest.js';

/**
 * Renders into a sandboxed frame (an opaque origin: no access to the host's
 * DOM, cookies or storage) that loads the frame document, then writes the
 * component's HTML into it (src/frame/bootstrap.ts); the frame may have loaded
 * its document already (render/warm-frames.ts). Resolves once the component's
 * document has loaded and, with autoHeight, its height is applied; rejects when
 * the frame finds a `linked` file failing its integrity check.
 */
export function renderFrame(slot: HTMLElement, html: string, options: RenderOptions, linked: readonly LinkedFile[]): Promise<Rendered> {
  const { frame, port: handshake, dispose } = frameIn(slot, options.base, options.sandbox);
  // With autoHeight the frame starts empty and takes the measured height before `render` resolves: one change, no jump from the default 150px.
  frame.style.cssText = `display:block;border:0;width:100%${options.autoHeight ? ';height:0' : ''}`;
  if (options.autoHeight) frame.setAttribute('scrolling', 'no');
  const sizing = frameHeight(frame, slot, options);
  const route = actionRouter(options, sizing);
  let port: MessagePort | undefined;
  let loaded = false;
  let received = false;
  const rendered: Rendered = {
    update: (data) => port?.postMessage({ d: data }),
    destroy() {
      dispose();
      port?.close();
    },
  };
  return new Promise((resolve, reject) => {
    void handshake.then((given) => {
      port = given;
      port.onmessage = ({ data: message }: MessageEvent<FrameMessage>) => {
        if (typeof message !== 'object' || !message) return;
        if (message.e?.code === 'INTEGRITY_MISMATCH' || message.e?.code === 'RESOURCE_FAILED') {
          return reject(linkedError({ code: message.e.code, detail: String(message.e.detail) }));
        }
        if (typeof message.h === 'number' && options.autoHeight) sizing.height(message.h);
        if ('a' in message) route(message.a, message.p);
        const { x } = message;
        // From the component's window: kept to the schema's shape whatever it holds.
        if (x && (x.n === 'uncaught' || x.n === 'rejection')) options.onError(x.n, errorOf(x.class, x.message, x.stack));
        if (message.l === 1) loaded = true;
        if (message.r === 1) received = true;
        // Shown once loaded and, when the host gave data, once the component got it: its height then includes what the data adds.
        if (loaded && (received || options.data === undefined)) resolve(rendered);
      };
      const write: FrameDocument = { html, base: document.baseURI, ...(options.data === undefined ? {} : { d: options.data }), ...(linked.length ? { c: linked } : {}) };
      port.postMessage(write);
    });
  });
}
