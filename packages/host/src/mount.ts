import { getJson } from './consume-client.js';
import { otherArm } from './experience/arm.js';
import { watchSource } from './live/watch.js';
import { problemOf } from './problem.js';
import { render, type Rendered } from './render/render.js';
import { discardFrame, keepWarm, prepareFrame } from './render/warm-frames.js';
import { sourceOf, type Source } from './source.js';
import type { CpActionDetail, CpErrorDetail, CpLoadDetail, CpProblem, MountHandle, MountOptions } from './types.js';
import { errorOf, NO_STACK } from './usage/error-digest.js';
import { flush } from './usage/queue.js';
import { usageRecorder, type Record } from './usage/recorder.js';
import type { Variant } from './variant.js';

/** What the element shows around the content; 'error' only while nothing is rendered. */
export type MountState = 'ready' | 'error';

interface Shown {
  readonly variantId: string;
  readonly box: HTMLElement;
  /** Null: rendered by a server (renderComponent), not adopted yet. */
  readonly rendered: Rendered | null;
}

/** A variant a server rendered into the slot (`box`); its scripts have not run. */
export interface Prerendered {
  readonly variantId: string;
  readonly box: HTMLElement;
}

/** Out of sight but laid out at full width, so the component measures itself as it will be shown. */
const HIDDEN = { visibility: 'hidden', 'max-height': '0', overflow: 'hidden' };

/**
 * Renders a released component (or its preview) into `element` and keeps it:
 * `cp-load`, `cp-error` and `cp-action` events on the element, retries, and with
 * `live` a switch to each new variant without a blank frame.
 */
export function mount(element: HTMLElement, options: MountOptions): MountHandle {
  return start(element, element, options);
}

/**
 * `mount` with the events on `host` and the content in `slot`, reporting its state (the element's slots).
 * A `prerendered` variant stays in view: adopted if `/consume` names it, replaced otherwise.
 */
export function start(host: HTMLElement, slot: HTMLElement, options: MountOptions, onState?: (state: MountState) => void, prerendered?: Prerendered): MountHandle {
  const aborter = new AbortController();
  const { signal } = aborter;
  let data = options.data;
  let etag: string | null = null;
  let shown: Shown | null = prerendered ? { ...prerendered, rendered: null } : null;
  let pending: HTMLElement | null = null;
  let watching: (() => void) | null = null;
  const unwatch = (): void => {
    watching?.();
    watching = null;
  };
  let running = false;
  let again = false;
  let settle: [() => void, (error: unknown) => void] = [() => undefined, () => undefined];
  const ready = new Promise<void>((resolve, reject) => (settle = [resolve, reject]));
  // The events report failures too: an unawaited `ready` must not add an unhandled rejection.
  ready.catch(() => undefined);

  const emit = (type: string, detail: CpLoadDetail | CpErrorDetail | CpActionDetail): void => {
    host.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  };
  // Set once the options are checked; undefined: this mount sends no usage events.
  let record: Record | undefined;
  const began = performance.now();
  const fail = (problem: CpProblem, retrying: boolean): void => {
    if (!shown) onState?.('error');
    emit('cp-error', { problem, retrying });
    record?.('error', 'sdk', shown?.variantId ?? null, { error: errorOf(problem.code, problem.detail, NO_STACK) });
  };

  const isolation = options.isolation ?? 'iframe';
  const sandbox = options.sandbox ?? '';
  // Rendered out of sight, then swapped in within one task: the element is never empty in between.
  const hiddenBox = (): HTMLElement => {
    const box = slot.appendChild(document.createElement('div'));
    for (const [name, value] of Object.entries(HIDDEN)) box.style.setProperty(name, value);
    return box;
  };
  // Iframe isolation: the first box and its frame are made at the start, so the frame loads its document during the request.
  let early: HTMLElement | null = null;
  const dropEarly = (): void => {
    if (!early) return;
    discardFrame(early);
    early.remove();
    if (pending === early) pending = null;
    early = null;
  };

  async function show(variant: Variant, base: string, since: number): Promise<void> {
    // The server-rendered variant keeps its nodes (its scripts run now); any other goes into a hidden box.
    const adopted = shown && !shown.rendered && shown.variantId === variant.id ? shown.box : null;
    const box = adopted ?? (pending = early ?? hiddenBox());
    if (!adopted) early = null;
    const sent = data;
    let rendered: Rendered;
    try {
      rendered = await render(box, variant.loader, {
        isolation,
        shadowRootMode: options.shadowRootMode ?? variant.loader.shadowRootMode,
        sandbox,
        base,
        nonce: options.nonce ?? '',
        autoHeight: options.autoHeight ?? variant.loader.autoHeight,
        maxHeight: options.maxHeight,
        data: sent,
        id: variant.id,
        onAction: (action, payload) => {
          emit('cp-action', { action, payload });
          options.onAction?.(action, payload);
          record?.('interaction', action.slice(0, 64), variant.id);
        },
        onError: (name, error) => record?.('error', name, variant.id, { error }),
      }, !!adopted);
    } catch (error) {
      if (!adopted) {
        discardFrame(box);
        box.remove();
      }
      throw error;
    } finally {
      pending = null;
    }
    if (signal.aborted) {
      rendered.destroy();
      box.remove();
      return;
    }
    if (data !== sent) rendered.update(data);
    for (const name of Object.keys(HIDDEN)) box.style.removeProperty(name);
    if (!adopted) {
      shown?.rendered?.destroy();
      shown?.box.remove();
    }
    shown = { variantId: variant.id, box, rendered };
    onState?.('ready');
    emit('cp-load', { variantId: variant.id, variantName: variant.name });
    record?.('render', 'ready', variant.id, { ms: performance.now() - since });
    settle[0]();
    // The next mount or live switch from this base writes into a frame that has loaded already.
    if (isolation === 'iframe') keepWarm(base, sandbox);
  }

  /**
   * Reads the component (conditionally once rendered) and shows a variant other than the one shown. While an
   * experience or a rollout is live, the user's arm is picked here and read by its name, when the answer is another.
   */
  async function load({ base, url, pick, headers, missing, arm: armUrl }: Source): Promise<void> {
    const asked = performance.now();
    const get = (from: string, tag: string | null) => getJson(from, { signal, etag: tag, fresh: !!options.live, onRetry: (problem) => fail(problem, true), headers, missing });
    const answer = await get(url, shown ? etag : null);
    if (!answer) return;
    let { body, cached } = answer;
    // The user's arm, picked from the answer's descriptor. An arm answer of another revision is picked from again, at
    // most once: its body is shown as it is after that.
    for (let tries = 0, other; armUrl && tries < 2 && (other = otherArm(body, options.key, options.attributes)); tries++) {
      ({ body, cached } = (await get(armUrl(other.arm, other.revision), null))!);
    }
    const variant = pick(body);
    record?.('load', 'consume', variant.id, { ms: performance.now() - asked, cache: cached });
    // The first render counts from the mount's start, a live switch from its request.
    if (variant.id !== shown?.variantId || !shown.rendered) await show(variant, base, shown ? asked : began);
    etag = answer.etag;
  }

  /** One load at a time; a change noticed meanwhile loads once more afterwards. */
  async function refresh(source: Source): Promise<void> {
    if (running) {
      again = true;
      return;
    }
    running = true;
    do {
      again = false;
      try {
        await load(source);
      } catch (error) {
        if (signal.aborted) break;
        const problem = problemOf(error);
        // Live: a release, a recovered server or a fixed variant may come; bad requests stay bad.
        const retrying = !!options.live && problem.status !== 400 && problem.code !== 'INVALID_OPTIONS';
        fail(problem, retrying);
        if (!retrying) {
          unwatch();
          dropEarly();
          settle[1](error);
        }
      }
    } while (again && !signal.aborted);
    running = false;
  }

  // Started after the caller's synchronous code, so listeners it adds right after mount() hear everything.
  queueMicrotask(() => {
    if (signal.aborted) return;
    try {
      const source = sourceOf(options);
      record = usageRecorder(options, source.base, isolation);
      if (isolation === 'iframe') prepareFrame((early = pending = hiddenBox()), source.base, sandbox);
      const update = (): Promise<void> => refresh(source);
      if (options.live) watching = watchSource(source, () => void update());
      void update();
    } catch (error) {
      fail(problemOf(error), false);
      settle[1](error);
    }
  });

  return {
    ready,
    update(next) {
      data = next;
      if (!signal.aborted) shown?.rendered?.update(next);
    },
    unmount() {
      if (signal.aborted) return;
      aborter.abort();
      unwatch();
      dropEarly();
      pending?.remove();
      shown?.rendered?.destroy();
      shown?.box.remove();
      shown = null;
      // What this mount recorded leaves with it (and the queue's timer and listeners with the last events).
      flush();
    },
  };
}
