/*
 * Runs a shadow component's scripts as a page would (scripts parsed or moved
 * in by the SDK never run by themselves). Classic scripts, inline and `src`,
 * run in document order, each after the previous; `async` ones whenever they
 * are loaded, without holding the others back; `defer` and modules after the
 * classic ones, in order. Each runs once.
 *
 * The contract globals are page-wide, so scripts run one at a time page-wide
 * and `bind` says whose script is running. Every external script is preloaded
 * first, all at once, so that lock is held while a script runs, not while it
 * downloads. What running in the host page cannot do (shared globals, module
 * map, document.write, the host's CSP): docs/host-sdk.md, "Shadow isolation:
 * known limits". Under a host CSP with nonces, every script inserted here
 * carries the nonce the host gave (`nonce` option).
 */

const CLASSIC = /^$|^(text|application)\/(x-)?(java|ecma)script$|^text\/(javascript1\.[0-5]|jscript|livescript)$/;
const MODULE_RAN = 'cp-module-ran';

let lock: Promise<unknown> = Promise.resolve();
const oneAtATime = (task: () => Promise<void>): Promise<void> => {
  const turn = lock.then(task);
  lock = turn;
  return turn;
};

const settled = (element: HTMLElement): Promise<void> =>
  new Promise((resolve) => {
    element.onload = element.onerror = () => resolve();
  });

function copy(from: Element, to: Element, names: readonly string[]): void {
  for (const name of names) {
    const value = from.getAttribute(name);
    if (value !== null) to.setAttribute(name, value);
  }
}

/** Starts the download (modulepreload: into the module map). */
function preload(script: HTMLScriptElement, module: boolean, nonce: string): { ready: Promise<void>; link: HTMLLinkElement } {
  const link = document.createElement('link');
  link.nonce = nonce;
  link.rel = module ? 'modulepreload' : 'preload';
  link.as = 'script';
  copy(script, link, ['integrity', 'crossorigin', 'referrerpolicy']);
  link.href = script.src;
  const ready = settled(link);
  document.head.append(link);
  return { ready, link };
}

/** Replaces the inert parsed script with a live copy; resolves once it has run (or failed to load). `name`: an inline script's sourceURL. */
function execute(inert: HTMLScriptElement, module: boolean, nonce: string, name: string): Promise<void> {
  const live = document.createElement('script');
  // The host page's nonce (under its CSP), never one the component wrote.
  for (const { name, value } of inert.attributes) if (name !== 'nonce') live.setAttribute(name, value);
  live.nonce = nonce;
  live.text = inert.src ? inert.text : `${inert.text}\n//# sourceURL=${name}`;
  // Not async: dynamically inserted scripts then keep insertion order (the sentinel below follows its module).
  live.async = false;
  const external = live.hasAttribute('src');
  const ran = external ? settled(live) : Promise.resolve();
  inert.replaceWith(live);
  if (external || !module) return ran;
  // An inline module fires no load event: a module inserted after it in order tells when it has run.
  const sentinel = document.createElement('script');
  sentinel.nonce = nonce;
  sentinel.type = 'module';
  sentinel.async = false;
  sentinel.text = `dispatchEvent(new Event('${MODULE_RAN}'))`;
  const sentinelRan = new Promise<void>((resolve) => addEventListener(MODULE_RAN, () => resolve(), { once: true }));
  live.after(sentinel);
  return sentinelRan.then(() => sentinel.remove());
}

export interface ScriptRun {
  /** Makes the contract globals refer to this instance (`true`) or to none (`false`). */
  bind(on: boolean): void;
  /** False once the instance is destroyed: scripts not yet run are skipped. */
  alive(): boolean;
  /** The host page's CSP nonce, put on every script inserted ('' when none). */
  readonly nonce: string;
  /** Inline scripts run as `<files><n>.js` (`//# sourceURL`), so their errors name the component (render/component-errors.ts). */
  readonly files: string;
}

/** Runs the scripts under `root`; resolves when the classic, defer and module ones have run (async ones may run later). */
export async function runScripts(root: ShadowRoot, instance: ScriptRun): Promise<void> {
  const ordered: (() => Promise<void>)[] = [];
  const deferred: (() => Promise<void>)[] = [];
  let inline = 0;
  for (const script of root.querySelectorAll('script')) {
    const type = (script.getAttribute('type') ?? '').trim().toLowerCase();
    const module = type === 'module';
    // nomodule: skipped by every browser that runs modules.
    if (!module && (!CLASSIC.test(type) || script.hasAttribute('nomodule'))) continue;
    const external = script.hasAttribute('src');
    const name = external ? '' : `${instance.files}${inline++}.js`;
    const download = external ? preload(script, module, instance.nonce) : null;
    const run = async (): Promise<void> => {
      await download?.ready;
      await oneAtATime(async () => {
        if (!instance.alive()) return;
        instance.bind(true);
        await execute(script, module, instance.nonce, name).finally(() => instance.bind(false));
      });
      download?.link.remove();
    };
    if (script.hasAttribute('async') && (external || module)) void run();
    else if (module || (external && script.hasAttribute('defer'))) deferred.push(run);
    else ordered.push(run);
  }
  for (const run of [...ordered, ...deferred]) await run();
}
