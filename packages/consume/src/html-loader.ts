import { parse } from 'parse5';
import type { HtmlLoader, LoaderScript, LoaderStyle } from './consume-schemas.js';

interface Node {
  nodeName: string;
  tagName?: string;
  attrs?: { name: string; value: string }[];
  childNodes?: Node[];
  value?: string;
}

// Script types a browser executes (HTML spec "JavaScript MIME type essence match").
const CLASSIC_SCRIPT_TYPES = new Set([
  '', 'text/javascript', 'application/javascript', 'application/ecmascript', 'application/x-ecmascript',
  'application/x-javascript', 'text/ecmascript', 'text/javascript1.0', 'text/javascript1.1', 'text/javascript1.2',
  'text/javascript1.3', 'text/javascript1.4', 'text/javascript1.5', 'text/jscript', 'text/livescript',
  'text/x-ecmascript', 'text/x-javascript',
]);

const attr = (node: Node, name: string): string | null => node.attrs?.find((a) => a.name === name)?.value ?? null;
const has = (node: Node, name: string): boolean => node.attrs?.some((a) => a.name === name) ?? false;
const textOf = (node: Node): string => (node.childNodes ?? []).map((child) => child.value ?? '').join('');

function styleOf(node: Node): LoaderStyle | null {
  if (node.tagName === 'style') {
    const type = (attr(node, 'type') ?? '').trim().toLowerCase();
    return type === '' || type === 'text/css' ? { type: 'inline', content: textOf(node), media: attr(node, 'media') } : null;
  }
  if (node.tagName !== 'link') return null;
  const rel = (attr(node, 'rel') ?? '').toLowerCase().split(/[\t\n\f\r ]+/);
  const href = attr(node, 'href');
  // "alternate stylesheet" is off until the user picks it: not part of the page's look.
  if (!rel.includes('stylesheet') || rel.includes('alternate') || href === null || href.trim() === '') return null;
  return { type: 'url', url: href.trim(), media: attr(node, 'media'), integrity: attr(node, 'integrity'), crossOrigin: attr(node, 'crossorigin') };
}

function scriptOf(node: Node): LoaderScript | null {
  if (node.tagName !== 'script') return null;
  const type = (attr(node, 'type') ?? '').trim().toLowerCase();
  const module = type === 'module';
  // Data blocks (JSON, templates, import maps) do not run; they stay in HTML only.
  if (!module && !CLASSIC_SCRIPT_TYPES.has(type)) return null;
  const src = attr(node, 'src');
  if (src !== null && src.trim() !== '') {
    return {
      type: 'url',
      url: src.trim(),
      module,
      async: has(node, 'async'),
      defer: module || has(node, 'defer'),
      integrity: attr(node, 'integrity'),
      crossOrigin: attr(node, 'crossorigin'),
    };
  }
  const content = textOf(node);
  return content.trim() === '' ? null : { type: 'inline', content, module };
}

/**
 * Builds the loader of one variant. The page is parsed with parse5 (the HTML
 * spec's algorithm), so what counts as a style or a script is what a browser
 * would see: nothing inside comments, `<template>` or `<noscript>`, attributes
 * matched case-insensitively. URLs are returned as written in the page.
 */
export function buildHtmlLoader(html: string, integrity: string): HtmlLoader {
  const styles: LoaderStyle[] = [];
  const scripts: LoaderScript[] = [];
  const visit = (node: Node): void => {
    const style = styleOf(node);
    if (style) styles.push(style);
    const script = scriptOf(node);
    if (script) scripts.push(script);
    // parse5 keeps <template> content in a separate fragment (`content`), which is not visited.
    for (const child of node.childNodes ?? []) visit(child);
  };
  visit(parse(html));
  return { type: 'HTMLLoader', HTML: html, shadowRootMode: 'open', autoHeight: true, integrity, styles, scripts };
}
