import { actionRouter } from './contract.js';
import { FRAME_BOOTSTRAP, FRAME_HELLO } from './frame-bootstrap.js';
import type { RenderOptions, Rendered } from './render.js';

// Leading whitespace, comments and the doctype: the bootstrap goes right after them, so standards mode holds.
const PROLOGUE = /^(\s*<!--[\s\S]*?-->)*\s*(<!doctype[^>]*>)?/i;

/** The component's HTML with the bootstrap script first (a function replacer: `$` in the script is literal). */
export const withBootstrap = (html: string): string => html.replace(PROLOGUE, (prologue) => `${prologue}<script>${FRAME_BOOTSTRAP}</script>`);

type FrameMessage = { a?: unknown; p?: unknown; h?: unknown; l?: unknown; r?: unknown } | null;

/**
 * Renders into a sandboxed srcdoc frame (an opaque origin: no access to the
 * host's DOM, cookies or storage). Resolves once the frame has loaded and,
 * with autoHeight, its height is applied.
 */
export function renderFrame(slot: HTMLElement, html: string, options: RenderOptions): Promise<Rendered> {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', `allow-scripts ${options.sandbox}`.trim());
  // With autoHeight the frame starts empty and takes the measured height before `render` resolves: one change, no jump from the default 150px.
  frame.style.cssText = `display:block;border:0;width:100%${options.autoHeight ? ';height:0' : ''}`;
  if (options.autoHeight) frame.setAttribute('scrolling', 'no');
  frame.srcdoc = withBootstrap(html);
  const setHeight = (px: number): void => void (frame.style.height = `${px}px`);
  const route = actionRouter(options, setHeight);
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
        if (typeof message.h === 'number' && options.autoHeight) setHeight(message.h);
        if ('a' in message) route(message.a, message.p);
        if (message.l === 1) loaded = true;
        if (message.r === 1) received = true;
        // Shown once loaded and, when the host gave data, once the component got it: its height then includes what the data adds.
        if (loaded && (received || options.data === undefined)) resolve(rendered);
      };
      if (options.data !== undefined) port.postMessage({ d: options.data });
    };
    addEventListener('message', onHello);
    slot.append(frame);
  });
}
