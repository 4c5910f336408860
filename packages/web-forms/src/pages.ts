import type { Request, Response } from 'express';
import { CSRF_FIELD } from './csrf.js';
import { html, type SafeHtml } from './html.js';

/** The document around every server-rendered page; each app brings its stylesheet and what goes in `<body>`. */
export function htmlDocument(options: { title: string; stylesheet: string; body: SafeHtml }): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title}</title>
<link rel="stylesheet" href="${options.stylesheet}">
</head>
<body>
${options.body}
</body>
</html>
`.value;
}

/** A page with the app's security headers (no caching, no framing, its own CSP). */
export function sendHtmlPage(res: Response, page: { status: number; body: string; headers: Readonly<Record<string, string>> }): void {
  res.status(page.status).set(page.headers).type('html').send(page.body);
}

/** A submitted text field, or '' when absent or not text. */
export const field = (req: Request, name: string): string => {
  const value: unknown = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
};

export const csrfInput = (token: string): SafeHtml => html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;

/** An error summary announced by screen readers; with an `id`, the fields it names can point to it. */
export const errorBox = (message: string | null, id?: string): SafeHtml =>
  message === null ? html`` : html`<p class="error"${id === undefined ? '' : html` id="${id}"`} role="alert">${message}</p>`;

export const noticeBox = (message: string | null): SafeHtml =>
  message === null ? html`` : html`<p class="notice" role="status">${message}</p>`;
