import { FRAME_HELLO, type FrameDocument, type FrameMessage } from '../frame/protocol.js';
import { actionRouter } from './contract.js';
import { frameHeight } from './frame-height.js';
import type { RenderOptions, Rendered } from './render.js';

/** The frame document's file name, fixed by the build (its content hash): `v1.<hash>.html`. */
declare const CP_FRAME_FILE: string;

/** Where the frame document is served beside `/consume` (the delivery API, or a static export that writes it). */
export const frameUrl = (base: string): string => `${base}/host/frame/${CP_FRAME_FILE}`;

/**
 * Renders into a sandboxed frame (an opaque origin: no access to the host's
 * DOM, cookies or storage) that loads the frame document, then writes the
 * component's HTML into it (src/frame/bootstrap.ts). Resolves once the
 * component's document has loaded and, with autoHeight, its height is applied.
 */
export function renderFrame(slot: HTMLElement, html: string, options: RenderOptions): Promise<Rendered> {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', `allow-scripts ${options.sandbox}`.trim());
  // With autoHeight the frame starts empty and takes the measured height before `render` resolves: one change, no jump from the default 150px.
  frame.style.cssText = `display:block;border:0;width:100%${options.autoHeight ? ';height:0' : ''}`;
  if (options.autoHeight) frame.setAttribute('scrolling', 'no');
  frame.src = frameUrl(options.base);
  const sizing = frameHeight(frame, slot, options);
  const route = actionRouter(options, sizing);
  let port: MessagePort | undefined;
  let loaded = false;
  let received = false;
  let onHello: (event: MessageEvent) => void = () => undefined;
  const rendered: Rendered = {
    update: (data) => port?.postMessage({ d: data }),
    destroy() {
      removeEventListener('message', onHello);
      port?.close();
      frame.remove();
    },
  };
  return new Promise((resolve) => {
    // Only the frame's own window, from its opaque origin, hands over the port.
    onHello = (event) => {
      if (event.source !== frame.contentWindow || event.origin !== 'null' || event.data !== FRAME_HELLO || !event.ports[0]) return;
      removeEventListener('message', onHello);
      port = event.ports[0];
      port.onmessage = ({ data: message }: MessageEvent<FrameMessage>) => {
        if (typeof message !== 'object' || !message) return;
        if (typeof message.h === 'number' && options.autoHeight) sizing.height(message.h);
        if ('a' in message) route(message.a, message.p);
        if (message.l === 1) loaded = true;
        if (message.r === 1) received = true;
        // Shown once loaded and, when the host gave data, once the component got it: its height then includes what the data adds.
        if (loaded && (received || options.data === undefined)) resolve(rendered);
      };
      const write: FrameDocument = { html, base: document.baseURI, ...(options.data === undefined ? {} : { d: options.data }) };
      port.postMessage(write);
    };
    addEventListener('message', onHello);
    slot.append(frame);
  });
}
