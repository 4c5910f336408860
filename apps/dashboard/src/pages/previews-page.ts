import type { MemberOrganization, PreviewKey } from '@cp/domain';
import { Limits, Permission } from '@cp/domain';
import { csrfInput, html, noticeBox, type SafeHtml } from '@cp/web-forms';
import { type Chrome, layout, when } from './layout.js';
import { roleGate } from './role-note.js';

export interface PreviewsPageContent {
  readonly organization: MemberOrganization;
  readonly keys: readonly PreviewKey[];
  readonly chrome: Chrome;
  readonly notice: string | null;
  /** Just created: its secret, shown on this answer only (never in a URL, never stored). */
  readonly created?: { readonly name: string; readonly secret: string };
}

/** Preview access is setup: roles that cannot change it see the forms disabled, with the reason. */
const gateFor = (organization: MemberOrganization) =>
  roleGate(organization.role, Permission.ManageSetup, 'change preview access or preview keys', 'previews-role-note');

function switchSection(base: string, organization: MemberOrganization, csrf: string): SafeHtml {
  const state = organization.privatePreviews
    ? html`<p>
        <strong>Previews are private.</strong> <code>/consume?id=…</code> without
        <code>env</code> answers 404 unless the request sends one of the keys below in the
        <code>Cp-Preview-Key</code> header. Released environments stay public.
      </p>`
    : html`<p>
        <strong>Previews are public.</strong> Anyone who knows a component's id (it is in every host
        page) can read its latest upload with <code>/consume?id=…</code>.
      </p>`;
  const gate = gateFor(organization);
  return html`${state} ${gate.note}
    <form method="post" action="${base}/private" class="inline">
      ${csrfInput(csrf)}<input
        type="hidden"
        name="private"
        value="${organization.privatePreviews ? 'off' : 'on'}"
      />
      <button
        type="submit"
        ${organization.privatePreviews ? html` class="secondary"` : ''}${gate.disabled}
      >
        ${organization.privatePreviews ? 'Make previews public' : 'Make previews private'}
      </button>
    </form>`;
}

function keysSection(base: string, content: PreviewsPageContent): SafeHtml {
  const { organization, keys, chrome } = content;
  const off = gateFor(organization).disabled;
  const rows = keys.map(
    (key) =>
      html`<tr>
        <th scope="row">${key.name}</th>
        <td><code>${key.prefix}…</code></td>
        <td>${when(key.createdAt)}</td>
        <td>
          ${key.revokedAt === null ? html`<form method="post" action="${base}/keys/${key.id}/revoke">${csrfInput(chrome.csrf)}<button type="submit" class="danger"${off} aria-label="Revoke ${key.name}">Revoke</button></form>` : html`revoked ${when(key.revokedAt)}`}
        </td>
      </tr>`,
  );
  return html`<h2>Preview keys</h2>
    <p class="hint">
      A host sends a key with <code>mount(element, { previewKey })</code> or
      <code>&lt;cp-component preview-key="…"&gt;</code>. At most
      ${Limits.previewKeysPerOrganization} active keys.
    </p>
    ${
      keys.length === 0
        ? html`<p>No preview keys yet.</p>`
        : html`<table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Starts with</th>
                <th scope="col">Created</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              ${rows}
            </tbody>
          </table>`
    }
    <h3>New preview key</h3>
    <form method="post" action="${base}/keys" class="inline">
      ${csrfInput(chrome.csrf)}<label for="key-name">Name</label
      ><input
        type="text"
        id="key-name"
        name="name"
        required
        maxlength="${Limits.previewKeyNameMaxLength}"
        size="24"
        placeholder="staging host"${off}
      /><button type="submit"${off}>Create</button>
    </form>`;
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
      ${
        created === undefined
          ? ''
          : html`<div class="notice" role="status">
              <p>
                Preview key <strong>${created.name}</strong> created. Copy it now: it is shown only
                once.
              </p>
              <label for="new-secret">Preview key</label>
              <input
                type="text"
                id="new-secret"
                readonly
                value="${created.secret}"
                size="60"
                class="mono"
                autocomplete="off"
                spellcheck="false"
              />
            </div>`
      }
      ${switchSection(base, content.organization, content.chrome.csrf)}
      ${keysSection(base, content)}`,
  });
}
