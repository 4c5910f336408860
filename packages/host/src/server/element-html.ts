import { defaultTreeAdapter as tree, html as spec, parse, parseFragment, serializeOuter, type DefaultTreeAdapterMap } from 'parse5';
import { ELEMENT_SHADOW, INERT_TYPE, SHADOW_HOST_STYLE } from '../markup.js';

type Node = DefaultTreeAdapterMap['childNode'];
type Element = DefaultTreeAdapterMap['element'];
type Template = DefaultTreeAdapterMap['template'];
type Parent = DefaultTreeAdapterMap['parentNode'];

const element = (tagName: string, attributes: Record<string, string> = {}): Element =>
  tree.createElement(tagName, spec.NS.HTML, Object.entries(attributes).map(([name, value]) => ({ name, value })));

const childElement = (parent: Parent, tagName: string): Element =>
  parent.childNodes.find((node): node is Element => tree.isElementNode(node) && node.tagName === tagName)!;

function append(parent: Parent, nodes: readonly Node[]): void {
  for (const node of nodes) {
    tree.detachNode(node);
    tree.appendChild(parent, node);
  }
}

/** `<template shadowrootmode="open">` holding `nodes`: the browser's parser attaches them as an open shadow root. */
function shadowRoot(nodes: readonly Node[]): Template {
  const template = element('template', { shadowrootmode: 'open' }) as Template;
  const content = tree.createDocumentFragment();
  tree.setTemplateContent(template, content);
  append(content, nodes);
  return template;
}

/** Every script element under `nodes`, made a data block that does not run; its type is kept for the SDK (markup.ts). */
function keepScriptsInert(nodes: readonly Node[]): void {
  for (const node of nodes) {
    if (!tree.isElementNode(node)) continue;
    if (node.tagName === 'script') {
      const type = node.attrs.find((attr) => attr.name === 'type');
      node.attrs = [...node.attrs.filter((attr) => attr !== type), { name: 'type', value: 'inert' }, { name: INERT_TYPE, value: type?.value ?? '' }];
    }
    keepScriptsInert(node.childNodes);
  }
}

/**
 * `<cp-component>` with `attributes`, holding the element's shadow root as the SDK
 * builds it, and in it the component's styles and body content in a shadow root
 * of their own, as the SDK renders a shadow component (shadow.ts). Parsed and
 * serialized with parse5 (the HTML standard's algorithms): every text and
 * attribute value is escaped on the way out.
 */
export function elementHtml(attributes: Record<string, string>, componentHtml: string): string {
  const page = childElement(parse(componentHtml), 'html');
  const head = childElement(page, 'head').childNodes.filter((node) => tree.isElementNode(node) && ['style', 'link', 'script'].includes(node.tagName));
  const content = [...head, ...childElement(page, 'body').childNodes];
  keepScriptsInert(content);
  const host = element('div', { style: SHADOW_HOST_STYLE });
  append(host, [shadowRoot(content)]);
  const box = element('div');
  append(box, [host]);
  const shadow = [...parseFragment(ELEMENT_SHADOW).childNodes];
  append(shadow.at(-1) as Element, [box]);
  const cpComponent = element('cp-component', attributes);
  append(cpComponent, [shadowRoot(shadow)]);
  return serializeOuter(cpComponent);
}
