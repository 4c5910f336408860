import { can, Permission, type MemberOrganization } from '@cp/domain';
import { csrfInput, html, noticeBox } from '@cp/web-forms';
import { type Chrome, layout } from './layout.js';

/** An organization's name and deletion: owners only (others see the forms disabled, with the reason). */
export function organizationSettingsPage(options: { organization: MemberOrganization; chrome: Chrome; notice: string | null }): string {
  const { organization, chrome } = options;
  const base = `/orgs/${organization.id}`;
  const owner = can(organization.role, Permission.Own);
  const off = owner ? '' : html` disabled aria-describedby="why-owner"`;
  return layout({
    title: 'Organization settings',
    chrome,
    body: html`<h1>Organization settings</h1>
${noticeBox(options.notice)}
${owner ? '' : html`<p class="hint" id="why-owner">Your role is ${organization.role}: only owners rename or delete the organization.</p>`}
<h2>Name</h2>
<form method="post" action="${base}/rename" class="inline">${csrfInput(chrome.csrf)}<label for="org-name">Name</label><input type="text" id="org-name" name="name" value="${organization.name}" required size="32"${off}><button type="submit" class="secondary"${off}>Rename</button></form>
<h2>Delete</h2>
<p>Deleting removes the organization with everything in it: components, variants, releases, environments, flows, preview keys, memberships and its audit trail. Hosts get 404 for its components at once. Members whose default organization it is get another of theirs as default, or a new personal one. This cannot be undone.</p>
<form method="post" action="${base}/delete" class="inline">${csrfInput(chrome.csrf)}<label for="confirm-name">Type the organization's name to confirm</label><input type="text" id="confirm-name" name="name" required size="32" autocomplete="off"${off}><button type="submit" class="danger"${off}>Delete this organization</button></form>`,
  });
}
