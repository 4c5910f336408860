import type { HtmlLoader, Isolation } from '../types.js';
import type { ErrorDigest } from '../usage/error-digest.js';
import { sdkError } from '../problem.js';
import { renderFrame } from './frame.js';
import { verifyIntegrity } from './integrity.js';
import { linkedFiles } from './linked-integrity.js';
import { adoptShadow, renderShadow } from './shadow.js';

/** How one variant is rendered (resolved by mount from the host's options and the loader). */
export interface RenderOptions {
  readonly isolation: Isolation;
  readonly shadowRootMode: 'open' | 'closed';
  /** Iframe only: tokens added to `allow-scripts`. */
  readonly sandbox: string;
  /** Iframe only: the delivery API (or static export) that serves the frame document. */
  readonly base: string;
  /** Shadow only: the host page's CSP nonce for the scripts the SDK inserts ('' when none). */
  readonly nonce: string;
  readonly autoHeight: boolean;
  /** The most height the SDK gives the component, in CSS pixels; past it the component scrolls. */
  readonly maxHeight?: number;
  /** Handed to the component's `cpReceive` once it defines it; `undefined`: nothing is sent until `update`. */
  readonly data: unknown;
  readonly onAction: (action: string, payload: unknown) => void;
  /** The variant's id: shadow isolation names the inline scripts it runs by it (render/component-errors.ts). */
  readonly id: string;
  /** An uncaught error or unhandled rejection of the component (what of it may leave the page). */
  readonly onError: (name: ComponentErrorName, error: ErrorDigest) => void;
}

export type ComponentErrorName = 'uncaught' | 'rejection';

/** A rendered variant. */
export interface Rendered {
  update(data: unknown): void;
  /** Removes what render added to the slot and every listener, observer and channel it holds. */
  destroy(): void;
}

/**
 * Renders one variant into `slot` (an element already in the document), with
 * options mount has checked (source.ts). The data and the integrity of the HTML
 * and of every linked file that declares one are checked first (in iframe
 * isolation the frame checks the linked files, from where they load, so the host
 * page's `connect-src` needs only the delivery API): on any failure it rejects
 * with a `CpError` and the slot is left as it was. With `adopt`, the slot holds
 * what renderComponent rendered on a server (which checked the HTML): it is taken over.
 */
export async function render(slot: HTMLElement, loader: HtmlLoader, options: RenderOptions, adopt = false): Promise<Rendered> {
  let data: unknown;
  try {
    data = structuredClone(options.data);
  } catch {
    throw sdkError('INVALID_OPTIONS', 'data cannot be structured-cloned (functions, DOM nodes and class instances with private state cannot cross to the component).');
  }
  if (adopt) return adoptShadow(slot, { ...options, data });
  const linked = linkedFiles(loader, document.baseURI);
  if (options.isolation === 'shadow') {
    await verifyIntegrity(loader, linked);
    return renderShadow(slot, loader.HTML, { ...options, data });
  }
  await verifyIntegrity(loader, []);
  return renderFrame(slot, loader.HTML, { ...options, data }, linked);
}
