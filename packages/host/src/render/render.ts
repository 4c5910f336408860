import type { HtmlLoader, Isolation } from '../types.js';
import { fail } from './fail.js';
import { renderFrame } from './frame.js';
import { verifyIntegrity } from './integrity.js';
import { renderShadow } from './shadow.js';

/** How one variant is rendered (resolved by mount from the host's options and the loader). */
export interface RenderOptions {
  readonly isolation: Isolation;
  readonly shadowRootMode: 'open' | 'closed';
  /** Iframe only: tokens added to `allow-scripts`. */
  readonly sandbox: string;
  readonly autoHeight: boolean;
  /** Handed to the component's `cpReceive` once it defines it; `undefined`: nothing is sent until `update`. */
  readonly data: unknown;
  readonly onAction: (action: string, payload: unknown) => void;
}

/** A rendered variant. */
export interface Rendered {
  update(data: unknown): void;
  /** Removes what render added to the slot and every listener, observer and channel it holds. */
  destroy(): void;
}

/**
 * Renders one variant into `slot` (an element already in the document). The
 * options and the integrity of the HTML and of every linked file that declares
 * one are checked first: on any failure it rejects with a `CpError` and the
 * slot is left as it was.
 */
export async function render(slot: HTMLElement, loader: HtmlLoader, options: RenderOptions): Promise<Rendered> {
  const { isolation, sandbox } = options;
  if (isolation !== 'iframe' && isolation !== 'shadow') throw fail('INVALID_OPTIONS', `Unknown isolation "${String(isolation)}": use "iframe" or "shadow".`);
  // With allow-scripts it would let the frame remove its own sandbox.
  if (isolation === 'iframe' && /(^|\s)allow-same-origin(\s|$)/i.test(sandbox)) {
    throw fail('INVALID_OPTIONS', 'The sandbox token allow-same-origin is refused: with allow-scripts the component could remove its own sandbox.');
  }
  let data: unknown;
  try {
    data = structuredClone(options.data);
  } catch {
    throw fail('INVALID_OPTIONS', 'data cannot be structured-cloned (functions, DOM nodes and class instances with private state cannot cross to the component).');
  }
  await verifyIntegrity(loader);
  return (isolation === 'shadow' ? renderShadow : renderFrame)(slot, loader.HTML, { ...options, data });
}
