import { CSRF_FIELD, html, type SafeHtml } from '@cp/web-forms';

/** Response headers for every page: no scripts, no framing, only our stylesheet. */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  // No form-action: Chrome applies it to the redirect chain that ends at the client's redirect URI.
  'Content-Security-Policy': "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
};

export function layout(options: { title: string; body: SafeHtml; nav?: SafeHtml; wide?: boolean }): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Component platform</title>
<link rel="stylesheet" href="/assets/auth.css">
</head>
<body>
<main${options.wide === true ? html` class="wide"` : ''}>
${options.nav}
${options.body}
</main>
</body>
</html>
`.value;
}

export const csrfInput = (token: string): SafeHtml => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;

/** An error summary announced by screen readers; the fields it names point to it. */
export const errorBox = (message: string | null, id = 'form-error'): SafeHtml =>
  message === null ? html`` : html`<p class="error" id="${id}" role="alert">${message}</p>`;

export const noticeBox = (message: string | null): SafeHtml =>
  message === null ? html`` : html`<p class="notice" role="status">${message}</p>`;
