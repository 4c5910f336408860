import type { Page } from './sign-in.js';

/*
 * Reading the dashboard's pages the way a person reads them: tables as rows of
 * cell text, links by their rel. Regular expressions suffice: the pages are
 * server-rendered by one template and hold no scripts.
 */

const decode = (text: string): string =>
  text.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The visible text of an HTML fragment: tags dropped, entities decoded, white space collapsed. */
export const textOf = (fragment: string): string => decode(fragment.replace(/<[^>]*>/g, ' ')).replace(/\s+/g, ' ').trim();

/** The page after the `<h1>`, `<h2>` or `<h3>` whose text is `heading`. */
function after(page: Page, heading: string): string {
  const found = [...page.html.matchAll(/<h([123])\b[^>]*>([\s\S]*?)<\/h\1>/g)].find((h) => textOf(h[2] ?? '') === heading);
  if (found === undefined) throw new Error(`no heading "${heading}" on ${page.url}`);
  return page.html.slice((found.index ?? 0) + found[0].length);
}

/** The `<tr>` contents of the first table body in `html`. */
function rows(html: string, url: string): string[] {
  const body = /<table\b[\s\S]*?<tbody>([\s\S]*?)<\/tbody>/.exec(html)?.[1];
  if (body === undefined) throw new Error(`no table where expected on ${url}`);
  return [...body.matchAll(/<tr\b[^>]*>([\s\S]*?)<\/tr>/g)].map((row) => row[1] ?? '');
}

const cells = (row: string): string[] => [...row.matchAll(/<t[hd]\b[^>]*>([\s\S]*?)<\/t[hd]>/g)].map((cell) => textOf(cell[1] ?? ''));

/** The body rows of the first table after the heading `heading`: each row its cells' text. */
export const tableAfter = (page: Page, heading: string): string[][] => rows(after(page, heading), page.url).map(cells);

/** The body rows of the page's first table. */
export const firstTable = (page: Page): string[][] => rows(page.html, page.url).map(cells);

/** The `datetime` of each `<time>` in the rows of the first table after `heading`: the full instant behind the minute shown. */
export const timesAfter = (page: Page, heading: string): string[][] =>
  rows(after(page, heading), page.url).map((row) => [...row.matchAll(/<time datetime="([^"]+)">/g)].map((time) => time[1] ?? ''));

/** The absolute URL of the page's link with `rel` (e.g. the pager's "next"), or null. */
export function linkWithRel(page: Page, rel: string): string | null {
  const href = new RegExp(`<a href="([^"]*)" rel="${rel}">`).exec(page.html)?.[1];
  return href === undefined ? null : new URL(decode(href), page.url).href;
}

/** The absolute URL of the page's first link whose text is `label`, or null. */
export function linkNamed(page: Page, label: string): string | null {
  const link = [...page.html.matchAll(/<a\b[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g)].find((a) => textOf(a[2] ?? '') === label);
  return link === undefined ? null : new URL(decode(link[1] ?? ''), page.url).href;
}

/** The components listed on an organization's components page, in order: `/component/<id>` links of the table's rows. */
export const listedComponentIds = (page: Page): string[] =>
  [...(/<tbody>([\s\S]*?)<\/tbody>/.exec(page.html)?.[1] ?? '').matchAll(/<tr><th scope="row"><a href="\/component\/([^"]+)">/g)].map((m) => m[1] ?? '');

/** The text of the first link of each `<li>` of the first `<ol>` after the heading `heading` (e.g. a flow's components, in order). */
export function orderedListAfter(page: Page, heading: string): string[] {
  const list = /<ol>([\s\S]*?)<\/ol>/.exec(after(page, heading).split(/<h[12]\b/)[0] ?? '')?.[1];
  if (list === undefined) return [];
  return [...list.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((item) => textOf(/<a\b[^>]*>([\s\S]*?)<\/a>/.exec(item[1] ?? '')?.[1] ?? ''));
}

/** The accessible names (`aria-label`, else the text) of the page's buttons, in order. */
export const buttonsOf = (page: Page): string[] =>
  [...page.html.matchAll(/<button\b([^>]*)>([\s\S]*?)<\/button>/g)].map((b) => decode(/aria-label="([^"]*)"/.exec(b[1] ?? '')?.[1] ?? '') || textOf(b[2] ?? ''));
