import { html, type SafeHtml } from '@cp/web-forms';

export interface Choice {
  readonly label: string;
  readonly href: string;
  readonly current: boolean;
}

/**
 * A row of links that each show the same page another way (a window, an environment, a component's
 * overview or usage), the one shown marked `aria-current="page"`. Links rather than a form: each view
 * has its own URL, and it works without scripts.
 */
export const choiceLinks = (label: string, choices: readonly Choice[]): SafeHtml =>
  html`<nav class="choices" aria-label="${label}"><ul>${choices.map((c) => html`<li><a href="${c.href}"${c.current ? html` aria-current="page"` : ''}>${c.label}</a></li>`)}</ul></nav>`;
