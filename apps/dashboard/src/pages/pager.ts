import { html, type SafeHtml } from '@cp/web-forms';

/** Where a keyset list can go from the page shown: each a URL, or null when there is nothing that way. */
export interface PagerLinks {
  /** Back to the newest items (offered on any page but the latest). */
  readonly latest: string | null;
  readonly newer: string | null;
  readonly older: string | null;
}

/** "Latest …", "Newer …", "Older …" links under a list (`noun`: "variants", "release events"); nothing when there is one page. */
export function pager(label: string, noun: string, links: PagerLinks): SafeHtml {
  if (links.latest === null && links.newer === null && links.older === null) return html``;
  return html`<nav class="pager" aria-label="${label}">${links.latest === null ? '' : html`<a href="${links.latest}" rel="first">Latest ${noun}</a>`}${links.newer === null ? '' : html`<a href="${links.newer}" rel="prev">Newer ${noun}</a>`}${links.older === null ? '' : html`<a href="${links.older}" rel="next">Older ${noun}</a>`}</nav>`;
}
