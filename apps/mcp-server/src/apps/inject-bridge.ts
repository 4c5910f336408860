import {
  defaultTreeAdapter as tree,
  html as spec,
  parse,
  serialize,
  type DefaultTreeAdapterMap,
} from 'parse5';

type Element = DefaultTreeAdapterMap['element'];
type Parent = DefaultTreeAdapterMap['parentNode'];

const childElement = (parent: Parent, tagName: string): Element =>
  parent.childNodes.find(
    (node): node is Element => tree.isElementNode(node) && node.tagName === tagName,
  )!;

/**
 * The component's HTML with `script` as the first script of its `<head>`, so it runs before
 * any of the component's: after the head's leading `<meta>` elements (a charset declaration
 * stays where a browser looks for it), before everything else. Parsed and serialized with
 * parse5 (the HTML standard's algorithms, which always yield an `<html>` with a `<head>`): no
 * markup of the component can displace it. The script's text is written as it is, so it must
 * not contain `</script` (bridge-script.ts escapes what it embeds).
 */
export function withHeadScript(componentHtml: string, script: string): string {
  const document = parse(componentHtml);
  const head = childElement(childElement(document, 'html'), 'head');
  const element = tree.createElement('script', spec.NS.HTML, []);
  tree.insertText(element, script);
  const before = head.childNodes.find(
    (node) => tree.isElementNode(node) && node.tagName !== 'meta',
  );
  if (before === undefined) tree.appendChild(head, element);
  else tree.insertBefore(head, element, before);
  return serialize(document);
}
