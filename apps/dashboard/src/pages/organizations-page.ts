import type { MemberOrganization } from '@cp/domain';
import { html, noticeBox } from '@cp/web-forms';
import { type Chrome, layout, when } from './layout.js';
import { actionForm } from './parts/action-form.js';
import { listTable } from './parts/list-table.js';

/** The organizations the person belongs to, with their role. */
export function organizationsPage(organizations: readonly MemberOrganization[], chrome: Chrome, notice: string | null = null): string {
  return layout({
    title: 'Your organizations',
    chrome,
    body: html`<h1>Your organizations</h1>
${noticeBox(notice)}
${listTable({
  columns: ['Organization', 'Your role', 'Since', 'Previews'],
  rows: organizations.map((o) => html`<tr><th scope="row"><a href="/orgs/${o.id}/components">${o.name}</a>${o.isDefault ? html` <span class="hint">(default)</span>` : ''}</th><td>${o.role}</td><td>${when(o.createdAt)}</td><td><a href="/orgs/${o.id}/previews">${o.privatePreviews ? 'private' : 'public'}</a></td></tr>`),
})}
<h2>New organization</h2>
<p>You become its owner; it starts with the environments <code>staging</code> and <code>prod</code> (protected), as at sign-up.</p>
${actionForm({ action: '/orgs', csrf: chrome.csrf, label: 'Create', controls: html`<label for="new-org">Name</label><input type="text" id="new-org" name="name" required size="32">`, inline: true })}`,
  });
}
