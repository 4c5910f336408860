import type { MemberOrganization } from '@cp/domain';
import { html } from '@cp/web-forms';
import { type Chrome, layout, when } from './layout.js';

/** The organizations the person belongs to, with their role. */
export function organizationsPage(organizations: readonly MemberOrganization[], chrome: Chrome): string {
  return layout({
    title: 'Your organizations',
    chrome,
    body: html`<h1>Your organizations</h1>
<table><thead><tr><th scope="col">Organization</th><th scope="col">Your role</th><th scope="col">Since</th><th scope="col">Previews</th></tr></thead>
<tbody>${organizations.map((o) => html`<tr><th scope="row"><a href="/orgs/${o.id}/components">${o.name}</a>${o.isDefault ? html` <span class="hint">(default)</span>` : ''}</th><td>${o.role}</td><td>${when(o.createdAt)}</td><td><a href="/orgs/${o.id}/previews">${o.privatePreviews ? 'private' : 'public'}</a></td></tr>`)}</tbody></table>`,
  });
}
