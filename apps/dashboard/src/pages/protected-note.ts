import { html, type SafeHtml } from '@cp/web-forms';

/**
 * Beside a disabled Publish / Roll back: why a member cannot use it (the server refuses anyway).
 * Kept from Prettier: its embedded-HTML formatting would put line breaks into the text.
 */
// prettier-ignore
export const protectedNote = (environmentName: string, id: string): SafeHtml =>
  html`<span class="hint" id="${id}">${environmentName} is protected: only owners and admins of the organization publish or roll back here.</span>`;
