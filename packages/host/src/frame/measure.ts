/*
 * The component's height as the frame measures it: its content, not its viewport. The `<html>`
 * box is the height of a document in normal flow; the bottom of the body's content (plus the
 * body's and the root's padding, border and margin below it) adds what overflows a box sized by
 * the viewport (`html, body { height: 100% }`), which `scrollHeight` would report only as at least
 * the viewport, so a component could never shrink. Fixed elements (an overlay) are the
 * viewport's, not the content's.
 */

const below = (style: CSSStyleDeclaration): number =>
  parseFloat(style.paddingBottom) + parseFloat(style.borderBottomWidth) + (parseFloat(style.marginBottom) || 0);

export function contentHeight(): number {
  const root = document.documentElement;
  const body = document.body as HTMLElement | null;
  let height = root.getBoundingClientRect().height;
  if (body) {
    let bottom = 0;
    for (const child of body.children) {
      const { position, overflowY } = getComputedStyle(child);
      if (position === 'fixed') continue;
      const { top, bottom: childBottom } = child.getBoundingClientRect();
      // What overflows a child of the viewport's height (`height: 100vh`) is content too; what it clips or scrolls is not.
      bottom = Math.max(bottom, childBottom, overflowY === 'visible' ? top + child.scrollHeight : 0);
    }
    // The root's margin does not count: it is outside its box.
    const { paddingBottom, borderBottomWidth } = getComputedStyle(root);
    height = Math.max(height, bottom + scrollY + below(getComputedStyle(body)) + parseFloat(paddingBottom) + parseFloat(borderBottomWidth));
  }
  return Math.ceil(height);
}

/** Calls `measure` whenever the size of the document, the body or one of its children changes, or the frame's viewport does. */
export function watchSize(measure: () => void): void {
  const resizes = new ResizeObserver(measure);
  // The body may come later (the parser waits for a script) and its children change: observed again on each.
  const children = new MutationObserver(() => observe());
  const observe = (): void => {
    const { documentElement: root, body } = document;
    resizes.disconnect();
    children.disconnect();
    for (const element of [root, ...(body ? [body, ...body.children] : [])]) resizes.observe(element);
    children.observe(root, { childList: true });
    if (body) children.observe(body, { childList: true });
  };
  observe();
  // Each resize of the frame is measured, so the damping knows the viewport each height was measured in.
  addEventListener('resize', measure);
}
