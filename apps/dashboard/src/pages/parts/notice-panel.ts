import { html, type SafeHtml } from '@cp/web-forms';

/**
 * A notice of several parts (paragraphs, a list, a form): `status` for what just went through,
 * announced politely; `alert` for what is wrong and needs the reader, announced at once. For one
 * sentence use `noticeBox` or `errorBox` of @cp/web-forms.
 */
export const noticePanel = (kind: 'status' | 'alert', body: SafeHtml): SafeHtml =>
  kind === 'status'
    ? html`<div class="notice" role="status">${body}</div>`
    : html`<div class="error" role="alert">${body}</div>`;
