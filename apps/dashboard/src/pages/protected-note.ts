import { html, type SafeHtml } from '@cp/web-forms';

/**
 * Beside a member's Publish / Roll back on a protected environment: it sends a release request.
 * Kept from Prettier: its embedded-HTML formatting would put line breaks into the text.
 */
// prettier-ignore
export const protectedNote = (environmentName: string, id: string): SafeHtml =>
  html`<span class="hint" id="${id}">${environmentName} is protected: your publish sends a release request; an owner or admin of the organization approves it.</span>`;
