import { can, Permission, type MemberOrganization } from '@cp/domain';
import { html, noticeBox } from '@cp/web-forms';
import { type Chrome, layout } from './layout.js';
import { actionForm } from './parts/action-form.js';
import { confirmDestroy } from './parts/confirm-destroy.js';
import { disabledWithReason } from './parts/disabled-reason.js';

/** An organization's name and deletion: owners only (others see the forms disabled, with the reason). */
export function organizationSettingsPage(options: { organization: MemberOrganization; chrome: Chrome; notice: string | null }): string {
  const { organization, chrome } = options;
  const base = `/orgs/${organization.id}`;
  const gate = disabledWithReason(
    can(organization.role, Permission.Own) ? null : `Your role is ${organization.role}: only owners rename or delete the organization.`,
    'why-owner',
  );
  const off = gate.disabled;
  return layout({
    title: 'Organization settings',
    chrome,
    body: html`<h1>Organization settings</h1>
${noticeBox(options.notice)}
${gate.note}
<h2>Name</h2>
${actionForm({
  action: `${base}/rename`,
  csrf: chrome.csrf,
  label: 'Rename',
  style: 'secondary',
  controls: html`<label for="org-name">Name</label><input type="text" id="org-name" name="name" value="${organization.name}" required size="32"${off}>`,
  disabled: off,
  inline: true,
})}
<h2>CI trust policies</h2>
<p>Which GitHub Actions and gitlab.com jobs may publish with <code>cpc</code> without a stored secret (trusted publishing): <a href="${base}/settings/ci-policies">CI trust policies</a>${can(organization.role, Permission.ManageSetup) ? '' : ' (owners and admins)'}.</p>
<h2>Delete</h2>
<p>Deleting removes the organization with everything in it: components, variants, releases, environments, flows, preview keys, memberships and its audit trail. Hosts get 404 for its components at once. Members whose default organization it is get another of theirs as default, or a new personal one. This cannot be undone.</p>
${confirmDestroy({
  action: `${base}/delete`,
  csrf: chrome.csrf,
  label: 'Delete this organization',
  prompt: "Type the organization's name to confirm",
  field: { id: 'confirm-name', name: 'name' },
  disabled: off,
})}`,
  });
}
