import type { MemberOrganization } from '@cp/domain';
import { csrfInput, errorBox, html, htmlDocument, type SafeHtml } from '@cp/web-forms';
import { navigation, navigationGroups } from './navigation.js';

/** Every page: no scripts, no framing of the dashboard, only our stylesheet; previews come from our own origin. */
export const PAGE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': "default-src 'none'; style-src 'self'; img-src 'self'; frame-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'Cache-Control': 'no-store',
  'Referrer-Policy': 'same-origin',
};

/** Who is signed in and where, for the header of every page. */
export interface Chrome {
  readonly csrf: string;
  readonly email: string;
  readonly organizations: readonly MemberOrganization[];
  /** The organization the page belongs to, if any. */
  readonly organizationId: string | null;
  /** The path asked for: the navigation marks the item it belongs to (none when absent). */
  readonly path?: string;
}

function header(chrome: Chrome): SafeHtml {
  return html`<header class="top">
<a class="brand" href="/">Component dashboard</a>
<form method="post" action="/logout" class="account"><span class="hint">${chrome.email}</span>${csrfInput(chrome.csrf)}<button type="submit" class="secondary">Sign out</button></form>
</header>`;
}

/** Beside the navigation's groups: they lead into the organization it shows. */
function switcher(chrome: Chrome): SafeHtml {
  return html`<form method="get" action="/switch" class="switcher">
<label for="org-switcher">Organization</label>
<select id="org-switcher" name="org">${chrome.organizations.map((o) => html`<option value="${o.id}"${o.id === chrome.organizationId ? html` selected` : ''}>${o.name}</option>`)}</select>
<button type="submit" class="secondary">Switch</button>
</form>`;
}

export function layout(options: { title: string; body: SafeHtml; chrome: Chrome | null }): string {
  const { chrome } = options;
  const main = html`<main id="content">
${options.body}
</main>`;
  const role = chrome?.organizations.find((o) => o.id === chrome.organizationId)?.role;
  return htmlDocument({
    title: `${options.title} · Component dashboard`,
    stylesheet: '/assets/dashboard.css',
    body: html`<a class="skip" href="#content">Skip to content</a>
${chrome === null
  ? main
  : html`${header(chrome)}
<div class="shell">
${navigation(navigationGroups(chrome.organizationId, role), chrome.path ?? '', switcher(chrome))}
${main}
</div>`}`,
  });
}

export function messagePage(options: { title: string; message: string; chrome: Chrome | null; link?: { href: string; label: string }; alert?: boolean }): string {
  return layout({
    title: options.title,
    chrome: options.chrome,
    body: html`<h1>${options.title}</h1>
${options.alert === true ? errorBox(options.message) : html`<p>${options.message}</p>`}
${options.link === undefined ? '' : html`<p><a href="${options.link.href}">${options.link.label}</a></p>`}`,
  });
}

/** UTC to the minute: the same for every reader. */
export const when = (date: Date | null): SafeHtml =>
  date === null ? html`never` : html`<time datetime="${date.toISOString()}">${date.toISOString().slice(0, 16).replace('T', ' ')} UTC</time>`;

export const bytes = (size: number): string =>
  size < 1024 ? `${size} B` : size < 1024 * 1024 ? `${(size / 1024).toFixed(1)} KiB` : `${(size / 1024 / 1024).toFixed(2)} MiB`;
