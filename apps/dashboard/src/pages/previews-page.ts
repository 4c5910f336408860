import type { MemberOrganization, PreviewKey } from '@cp/domain';
import { Limits, Permission } from '@cp/domain';
import { html, noticeBox, type SafeHtml } from '@cp/web-forms';
import { layout, when } from './layout.js';
import { actionForm } from './parts/action-form.js';
import { emptyState } from './parts/empty-state.js';
import { listTable } from './parts/list-table.js';
import type { OrganizationPageContent } from './parts/organization-page.js';
import { roleGate } from './parts/role-gate.js';
import { secretOnce } from './parts/secret-once.js';

export interface PreviewsPageContent extends OrganizationPageContent {
  readonly keys: readonly PreviewKey[];
  /** Just created: its secret, shown on this answer only (never in a URL, never stored). */
  readonly created?: { readonly name: string; readonly secret: string };
}

/** Preview access is setup: roles that cannot change it see the forms disabled, with the reason. */
const gateFor = (organization: MemberOrganization) =>
  roleGate(organization.role, Permission.ManageSetup, 'change preview access or preview keys', 'previews-role-note');

function switchSection(base: string, organization: MemberOrganization, csrf: string): SafeHtml {
  const state = organization.privatePreviews
    ? html`<p><strong>Previews are private.</strong> <code>/consume?id=…</code> without <code>env</code> answers 404 unless the request sends one of the keys below in the <code>Cp-Preview-Key</code> header. Released environments stay public.</p>`
    : html`<p><strong>Previews are public.</strong> Anyone who knows a component's id (it is in every host page) can read its latest upload with <code>/consume?id=…</code>.</p>`;
  const gate = gateFor(organization);
  return html`${state} ${gate.note}
${actionForm({
  action: `${base}/private`,
  csrf,
  label: organization.privatePreviews ? 'Make previews public' : 'Make previews private',
  style: organization.privatePreviews ? 'secondary' : undefined,
  fields: { private: organization.privatePreviews ? 'off' : 'on' },
  disabled: gate.disabled,
  inline: true,
})}`;
}

function keysSection(base: string, content: PreviewsPageContent): SafeHtml {
  const { organization, keys, chrome } = content;
  const off = gateFor(organization).disabled;
  const rows = keys.map(
    (key) => html`<tr><th scope="row">${key.name}</th><td><code>${key.prefix}…</code></td><td>${when(key.createdAt)}</td>
<td>${key.revokedAt === null ? actionForm({ action: `${base}/keys/${key.id}/revoke`, csrf: chrome.csrf, label: 'Revoke', name: `Revoke ${key.name}`, style: 'danger', disabled: off }) : html`revoked ${when(key.revokedAt)}`}</td></tr>`,
  );
  return html`<h2>Preview keys</h2>
<p class="hint">A host sends a key with <code>mount(element, { previewKey })</code> or <code>&lt;cp-component preview-key="…"&gt;</code>. At most ${Limits.previewKeysPerOrganization} active keys.</p>
${listTable({ columns: ['Name', 'Starts with', 'Created', 'State'], rows, empty: emptyState('No preview keys yet.') })}
<h3>New preview key</h3>
${actionForm({
  action: `${base}/keys`,
  csrf: chrome.csrf,
  label: 'Create',
  controls: html`<label for="key-name">Name</label><input type="text" id="key-name" name="name" required maxlength="${Limits.previewKeyNameMaxLength}" size="24" placeholder="staging host"${off}>`,
  disabled: off,
  inline: true,
})}`;
}

/** An organization's preview access: the private switch and the preview keys (disabled, saying why, for members and viewers). */
export function previewsPage(content: PreviewsPageContent): string {
  const base = `/orgs/${content.organization.id}/previews`;
  const created = content.created;
  return layout({
    title: 'Previews',
    chrome: content.chrome,
    body: html`<h1>Previews of ${content.organization.name}</h1>
${noticeBox(content.notice)}
${created === undefined ? '' : secretOnce({ message: html`Preview key <strong>${created.name}</strong> created. Copy it now: it is shown only once.`, label: 'Preview key', secret: created.secret })}
${switchSection(base, content.organization, content.chrome.csrf)}
${keysSection(base, content)}`,
  });
}
