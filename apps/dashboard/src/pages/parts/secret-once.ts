import { html, type SafeHtml } from '@cp/web-forms';
import { noticePanel } from './notice-panel.js';

export interface SecretOnce {
  /** What was made, and that it is shown only once. */
  readonly message: SafeHtml;
  /** What the secret is ("Signing secret"). */
  readonly label: string;
  readonly secret: string;
  /** `field`: a read-only field to copy from; `text`: inline code (a link to pass on), marked with `testId`. */
  readonly as?: 'field' | 'text';
  readonly testId?: string;
}

/**
 * A secret on the answer that created it and never again (never in a URL, never stored in clear):
 * signing secrets, preview keys, invitation links. Use it once per page, right under the heading.
 */
export function secretOnce(s: SecretOnce): SafeHtml {
  const shown =
    s.as === 'text'
      ? html`<p>${s.label}: <code${s.testId === undefined ? '' : html` data-testid="${s.testId}"`}>${s.secret}</code></p>`
      : html`<label for="new-secret">${s.label}</label>
<input type="text" id="new-secret" readonly value="${s.secret}" size="60" class="mono" autocomplete="off" spellcheck="false">`;
  return noticePanel('status', html`<p>${s.message}</p>
${shown}`);
}
