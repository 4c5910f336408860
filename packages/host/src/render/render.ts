import type { HtmlLoader, Isolation } from '../types.js';

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
 * Renders one variant into `slot` (an element already in the document).
 * PLACEHOLDER until the render core lands: an iframe with the HTML, no contract.
 */
export async function render(slot: HTMLElement, loader: HtmlLoader, options: RenderOptions): Promise<Rendered> {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', `allow-scripts ${options.sandbox}`.trim());
  frame.srcdoc = loader.HTML;
  frame.style.cssText = 'display:block;border:0;width:100%';
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  slot.append(frame);
  await loaded;
  return { update: () => undefined, destroy: () => frame.remove() };
}
