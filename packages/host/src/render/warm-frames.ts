import { FRAME_HELLO } from '../frame/protocol.js';

/** The frame document's file name, fixed by the build (its content hash): `v1.<hash>.html`. */
declare const CP_FRAME_FILE: string;

/** Where the frame document is served beside `/consume` (the delivery API, or a static export that writes it). */
export const frameUrl = (base: string): string => `${base}/host/frame/${CP_FRAME_FILE}`;

/*
 * Frames that load the frame document before the component is known, so that once `/consume`
 * answers only the component's document is left to write (render/frame.ts). A mount starts
 * one in its (hidden) box while the request is in flight; after a render the page keeps one
 * warm frame per delivery base URL and sandbox, for a later mount or a live switch. A frame
 * moved in the DOM reloads, except by `moveBefore` (a state-preserving move): the warm ones
 * wait on a hidden shelf only where the browser has it; elsewhere each mount's frame loads in
 * place from its start and a live switch loads a new one.
 */

/** A frame loading (or showing) the frame document; `port` resolves at its handshake. */
export interface LoadingFrame {
  readonly frame: HTMLIFrameElement;
  readonly port: Promise<MessagePort>;
  /** Stops waiting for the handshake and removes the frame. */
  readonly dispose: () => void;
}

interface Kept extends LoadingFrame {
  readonly key: string;
}

type Mover = { moveBefore(node: Node, child: Node | null): void };

const sandboxOf = (sandbox: string): string => ['allow-scripts', ...sandbox.split(/\s+/).filter(Boolean).sort()].join(' ');
const keyOf = (base: string, sandbox: string): string => `${sandboxOf(sandbox)} ${base}`;
const canMove = (): boolean => typeof Element !== 'undefined' && 'moveBefore' in Element.prototype;

function load(parent: HTMLElement, base: string, sandbox: string): Kept {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', sandboxOf(sandbox));
  // Laid out as render/frame.ts starts an autoHeight frame (no viewport height), so a component written in
  // before the frame takes its final style never measures itself against the default 150px.
  frame.style.cssText = 'display:block;border:0;width:100%;height:0';
  frame.src = frameUrl(base);
  let onHello: (event: MessageEvent) => void = () => undefined;
  const port = new Promise<MessagePort>((resolve) => {
    // Only the frame's own window, from its opaque origin, hands over the port.
    onHello = (event) => {
      if (event.source !== frame.contentWindow || event.origin !== 'null' || event.data !== FRAME_HELLO || !event.ports[0]) return;
      removeEventListener('message', onHello);
      resolve(event.ports[0]);
    };
  });
  addEventListener('message', onHello);
  parent.append(frame);
  return {
    key: keyOf(base, sandbox),
    frame,
    port,
    dispose: () => {
      removeEventListener('message', onHello);
      frame.remove();
    },
  };
}

const prepared = new WeakMap<HTMLElement, Kept>();
const warm = new Map<string, Kept>();
let shelf: HTMLElement | undefined;

/** The warm frame for `key`, moved into `box` with its document loaded; none where it cannot move without a reload. */
function takeWarm(box: HTMLElement, key: string): Kept | undefined {
  const kept = warm.get(key);
  warm.delete(key);
  if (!kept) return undefined;
  try {
    (box as unknown as Mover).moveBefore(kept.frame, null);
    return kept;
  } catch {
    // Not connected (the page dropped the shelf, or the box left the document): it would reload.
    kept.dispose();
    return undefined;
  }
}

/** The frame to write a component into, in `box`: the one prepared there, a warm one moved in, or a new one. */
export function frameIn(box: HTMLElement, base: string, sandbox: string): LoadingFrame {
  const key = keyOf(base, sandbox);
  const own = prepared.get(box);
  prepared.delete(box);
  if (own?.key === key) return own;
  own?.dispose();
  return takeWarm(box, key) ?? load(box, base, sandbox);
}

/** Starts the frame of `box` now (mount start), for the render that follows `/consume`. */
export const prepareFrame = (box: HTMLElement, base: string, sandbox: string): void => void prepared.set(box, frameIn(box, base, sandbox) as Kept);

/** Drops the frame prepared in `box` (never rendered into: an unmount or a failure), with its listener. */
export function discardFrame(box: HTMLElement): void {
  prepared.get(box)?.dispose();
  prepared.delete(box);
}

/**
 * Keeps one warm frame for `base` and `sandbox` on the hidden shelf (after a render), where frames
 * can move; made in a task of its own, so that making it never delays the render that asked.
 */
export function keepWarm(base: string, sandbox: string): void {
  if (canMove()) setTimeout(() => fill(base, sandbox));
}

function fill(base: string, sandbox: string): void {
  const key = keyOf(base, sandbox);
  if (warm.get(key)?.frame.isConnected) return;
  warm.get(key)?.dispose();
  if (!shelf?.isConnected) {
    shelf = document.createElement('div');
    shelf.hidden = true;
    shelf.setAttribute('data-cp-warm', '');
    document.body.append(shelf);
  }
  warm.set(key, load(shelf, base, sandbox));
}
