import { can, canReadAuditTrail, Permission, type MemberOrganization } from '@cp/domain';
import { csrfInput, errorBox, html, htmlDocument, type SafeHtml } from '@cp/web-forms';

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
}

function header(chrome: Chrome): SafeHtml {
  const org = chrome.organizationId;
  const links = org === null ? [] : [
    [`/orgs/${org}/components`, 'Components'],
    [`/orgs/${org}/environments`, 'Environments'],
    [`/orgs/${org}/release-requests`, 'Release requests'],
    [`/orgs/${org}/flows`, 'Flows'],
    [`/orgs/${org}/previews`, 'Previews'],
    [`/orgs/${org}/members`, 'Members'],
    [`/orgs/${org}/settings`, 'Settings'],
  ];
  // Only for the roles that may read it (the domain refuses the others anyway).
  const role = chrome.organizations.find((o) => o.id === org)?.role;
  if (org !== null && role !== undefined && can(role, Permission.ManageSetup)) links.push([`/orgs/${org}/export`, 'Static export']);
  if (org !== null && role !== undefined && canReadAuditTrail(role)) links.push([`/orgs/${org}/audit`, 'Audit trail']);
  if (org !== null && role !== undefined && can(role, Permission.ManageSetup)) links.push([`/orgs/${org}/webhooks`, 'Webhooks']);
  links.push(['/orgs', 'Organizations'], ['/applications', 'Connected applications']);
  return html`<header class="top">
<nav aria-label="Main"><ul>${links.map(([href, label]) => html`<li><a href="${href}">${label}</a></li>`)}</ul></nav>
<form method="get" action="/switch" class="inline">
<label for="org-switcher">Organization</label>
<select id="org-switcher" name="org">${chrome.organizations.map((o) => html`<option value="${o.id}"${o.id === org ? html` selected` : ''}>${o.name}</option>`)}</select>
<button type="submit" class="secondary">Switch</button>
</form>
<form method="post" action="/logout" class="inline"><span>${chrome.email}</span>${csrfInput(chrome.csrf)}<button type="submit" class="secondary">Sign out</button></form>
</header>`;
}

export function layout(options: { title: string; body: SafeHtml; chrome: Chrome | null }): string {
  return htmlDocument({
    title: `${options.title} · Component dashboard`,
    stylesheet: '/assets/dashboard.css',
    body: html`<a class="skip" href="#content">Skip to content</a>
${options.chrome === null ? '' : header(options.chrome)}
<main id="content">
${options.body}
</main>`,
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
