import { INERT_TYPE, SHADOW_HOST_STYLE } from '../markup.js';
import { actionRouter } from './contract.js';
import type { RenderOptions, Rendered } from './render.js';
import { watchErrors } from './component-errors.js';
import { runScripts } from './shadow-scripts.js';

interface Instance {
  readonly root: ShadowRoot;
  readonly send: (action: unknown, payload: unknown) => void;
  receive: unknown;
  setReceive(receive: unknown): void;
}

/*
 * The contract globals of shadow components: accessors on the page's window,
 * installed once, that refer to the instance whose script is running (scripts
 * run one at a time page-wide). So a component reads them, and assigns
 * cpReceive, while its scripts run; a later read (an event handler, a timer)
 * sees another instance or none, which is why authors keep what their top
 * level got. An assignment made when no component script runs is ignored.
 */
let running: Instance | undefined;
function installGlobals(): void {
  if ('cpSend' in window) return;
  const define = (name: string, get: () => unknown, set?: (value: unknown) => void): void =>
    void Object.defineProperty(window, name, { configurable: true, get, set });
  define('cpSend', () => running?.send);
  define('cpRoot', () => running?.root);
  define('cpReceive', () => running?.receive, (receive) => running?.setReceive(receive));
}

/** The component's styles (scoped by the root) and body content; `noscript` is dropped, as a page with scripting does. */
function fill(root: ShadowRoot, html: string): void {
  const parsed = new DOMParser().parseFromString(html, 'text/html');
  for (const noscript of parsed.querySelectorAll('noscript')) noscript.remove();
  root.append(...parsed.head.querySelectorAll('style,link,script'), ...parsed.body.childNodes);
}

const stylesheetsLoaded = (root: ShadowRoot): Promise<unknown> =>
  Promise.all(
    [...root.querySelectorAll<HTMLLinkElement>('link[rel=stylesheet i]')].map(
      (link) => new Promise((resolve) => (link.onload = link.onerror = resolve)),
    ),
  );

/**
 * Renders into a shadow root on an inner element, a block that follows its
 * content (autoHeight is natural here). Resolves once the classic, defer and
 * module scripts have run.
 */
export async function renderShadow(slot: HTMLElement, html: string, options: RenderOptions): Promise<Rendered> {
  const host = document.createElement('div');
  // Hidden until its stylesheets load, as a page does not paint before them.
  host.style.cssText = `${SHADOW_HOST_STYLE};visibility:hidden`;
  const root = host.attachShadow({ mode: options.shadowRootMode });
  fill(root, html);
  const stylesheets = stylesheetsLoaded(root);
  slot.append(host);
  await stylesheets;
  host.style.visibility = '';
  return activate(host, root, options);
}

/** Takes over the shadow component a server rendered into `slot` (its host element and open root): its scripts run now. */
export function adoptShadow(slot: HTMLElement, options: RenderOptions): Promise<Rendered> {
  const host = slot.firstElementChild as HTMLElement;
  const root = host.shadowRoot!;
  for (const script of root.querySelectorAll(`script[${INERT_TYPE}]`)) {
    script.setAttribute('type', script.getAttribute(INERT_TYPE)!);
    script.removeAttribute(INERT_TYPE);
  }
  return activate(host, root, options);
}

/** The contract of a rendered shadow component (data in, actions out), then its scripts. */
async function activate(host: HTMLElement, root: ShadowRoot, options: RenderOptions): Promise<Rendered> {
  installGlobals();
  if (options.maxHeight) host.style.cssText += `;max-height:${options.maxHeight}px;overflow-y:auto`;
  let alive = true;
  let data = options.data;
  let hasData = data !== undefined;
  let receive: unknown;
  let queued = false;
  const deliver = (): void => {
    queued = false;
    if (alive && hasData && typeof receive === 'function') (receive as (data: unknown) => void)(data);
  };
  const schedule = (): void => {
    if (!queued) queueMicrotask(deliver);
    queued = true;
  };
  // A fixed element of the component already covers the page's viewport: an overlay needs nothing.
  const route = actionRouter(options, { height: (px) => (host.style.height = `${px}px`), overlay: () => undefined });
  const instance: Instance = {
    root,
    // Cloned as postMessage would, so the host never holds the component's objects.
    send(action, payload) {
      if (typeof action !== 'string' || !action) throw new TypeError('cpSend(action, payload): action must be a non-empty string');
      const copy: unknown = structuredClone(payload);
      if (alive) route(action, copy);
    },
    get receive() {
      return receive;
    },
    setReceive(next) {
      receive = next;
      schedule();
    },
  };
  const files = `cp-component/${options.id}/`;
  const unwatch = watchErrors(root, files, options.onError);
  await runScripts(root, { alive: () => alive, bind: (on) => (running = on ? instance : undefined), nonce: options.nonce, files });
  return {
    update(next) {
      data = structuredClone(next);
      hasData = true;
      schedule();
    },
    destroy() {
      alive = false;
      unwatch();
      host.remove();
    },
  };
}
