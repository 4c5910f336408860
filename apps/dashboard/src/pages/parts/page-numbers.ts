import { html, type SafeHtml } from '@cp/web-forms';

/**
 * "Previous page", "Page n", "Next page" under a list read by numbered pages (`link`: the URL of a
 * page). For lists read newest first by position, use `pager` (pages/pager.ts).
 */
export function pageNumbers(label: string, page: number, hasNextPage: boolean, link: (page: number) => string): SafeHtml {
  return html`<nav class="pager" aria-label="${label}">${page > 1 ? html`<a href="${link(page - 1)}" rel="prev">Previous page</a>` : ''}<span>Page ${page}</span>${hasNextPage ? html`<a href="${link(page + 1)}" rel="next">Next page</a>` : ''}</nav>`;
}
