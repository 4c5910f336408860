import type { Sizing } from './contract.js';

/** While open, the frame covers the page's viewport, above the page. */
const OVERLAY = { position: 'fixed', inset: '0', height: '100%', 'z-index': '2147483647' };

/**
 * The frame's height in the page: the component's measured height (autoHeight) or the one it asks
 * for (`cp:size`), at most `maxHeight` (past it the component scrolls in its frame), and the
 * full-viewport overlay the component asks for with `cp:overlay`, its place in the page kept.
 */
export function frameHeight(frame: HTMLIFrameElement, slot: HTMLElement, { autoHeight, maxHeight = Infinity }: { autoHeight: boolean; maxHeight?: number }): Sizing {
  let height: number | undefined;
  let open = false;
  const show = (): void => {
    if (open || height === undefined) return;
    frame.style.height = `${Math.min(height, maxHeight)}px`;
    if (autoHeight) frame.setAttribute('scrolling', height > maxHeight ? 'auto' : 'no');
  };
  return {
    height(px) {
      // Kept while the overlay is open, shown once it closes.
      height = px;
      show();
    },
    overlay(next) {
      // Only right after a click or key press in the page or the frame: a component cannot cover the page unasked.
      if (next === open || (next && navigator.userActivation?.isActive === false)) return;
      open = next;
      if (open) slot.style.height = `${frame.offsetHeight}px`;
      for (const [name, value] of Object.entries(OVERLAY)) {
        if (open) frame.style.setProperty(name, value);
        else frame.style.removeProperty(name);
      }
      if (!open) slot.style.removeProperty('height');
      show();
    },
  };
}
