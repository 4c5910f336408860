import { digest, thrownIn } from '../usage/error-digest.js';
import type { RenderOptions } from './render.js';

/*
 * A shadow component runs in the host page's window: of the page's uncaught errors and
 * unhandled rejections, those thrown in the component's scripts are its own. Its inline
 * scripts run named `cp-component/<variant>/<n>.js` (render/shadow-scripts.ts), which
 * Chromium gives as the ErrorEvent's file and in stacks; its external scripts are known
 * by URL. An error counts when the file, or the frame that threw, is one of them; a rejection
 * whose reason is no Error has no stack, and is not counted. Two instances of one
 * variant both match: the first listener claims the event.
 */

const claimed = new WeakSet<Event>();

/** Listens for the component's errors on the page; returns what stops it. */
export function watchErrors(root: ShadowRoot, files: string, onError: RenderOptions['onError']): () => void {
  const urls = [...root.querySelectorAll('script[src]')].map((script) => (script as HTMLScriptElement).src);
  // `where`: the event's file, or the frame that threw.
  const own = (where: string, event: Event): boolean =>
    [files, ...urls].some((file) => where.includes(file)) && !claimed.has(event) && !!claimed.add(event);
  const onUncaught = (event: ErrorEvent): void => {
    if (own(event.filename, event)) onError('uncaught', digest(event.error, event.message));
  };
  const onRejection = (event: PromiseRejectionEvent): void => {
    if (own(thrownIn(event.reason), event)) onError('rejection', digest(event.reason));
  };
  addEventListener('error', onUncaught);
  addEventListener('unhandledrejection', onRejection);
  return () => {
    removeEventListener('error', onUncaught);
    removeEventListener('unhandledrejection', onRejection);
  };
}
