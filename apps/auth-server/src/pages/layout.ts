import { html, htmlDocument, type SafeHtml } from '@cp/web-forms';

/** Response headers for every page: no scripts, no framing, only our stylesheet. */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  // No form-action: Chrome applies it to the redirect chain that ends at the client's redirect URI.
  'Content-Security-Policy': "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'no-referrer',
};

export function layout(options: { title: string; body: SafeHtml; nav?: SafeHtml; wide?: boolean }): string {
  return htmlDocument({
    title: `${options.title} · Component platform`,
    stylesheet: '/assets/auth.css',
    body: html`<main${options.wide === true ? html` class="wide"` : ''}>
${options.nav}
${options.body}
</main>`,
  });
}
