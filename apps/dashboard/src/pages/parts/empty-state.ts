import { html, type SafeHtml } from '@cp/web-forms';

/**
 * What a list says in place of itself when it has nothing to show ("No endpoints yet."). Use it for
 * every list that can be empty, directly or as `listTable`'s `empty`; `quiet` for a list that is
 * secondary on its page, said as a hint.
 */
export const emptyState = (message: string | SafeHtml, quiet = false): SafeHtml =>
  quiet ? html`<p class="hint">${message}</p>` : html`<p>${message}</p>`;
