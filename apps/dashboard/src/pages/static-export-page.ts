import type { StaticExport } from '@cp/domain';
import { html, noticeBox, type SafeHtml } from '@cp/web-forms';
import { layout, when } from './layout.js';
import { actionForm } from './parts/action-form.js';
import { noticePanel } from './parts/notice-panel.js';
import type { OrganizationPageContent } from './parts/organization-page.js';

export interface StaticExportPageContent extends OrganizationPageContent {
  readonly state: StaticExport;
  /** The organization's export base URL (EXPORT_PUBLIC_URL); null when the deployment gives none. */
  readonly baseUrl: string | null;
  /** Its folder in the export bucket (EXPORT_PREFIX and the organization id), shown without a public URL. */
  readonly folder: string;
}

function stateSection(content: StaticExportPageContent): SafeHtml {
  const { state, baseUrl, folder } = content;
  if (!state.enabled) {
    return html`<p>
      <strong>Static export is off.</strong> Turn it on to have every release and rollback written
      to the export bucket as plain JSON files, which a CDN can serve without the delivery API.
    </p>`;
  }
  const where =
    baseUrl === null
      ? html`<p>
          Written to the folder <code>${folder}</code> of the export bucket. This deployment gives
          no public URL for it (<code>EXPORT_PUBLIC_URL</code>).
        </p>`
      : html`<p>
            Served at <code>${baseUrl}/</code>: <code>${baseUrl}/manifest.json</code> lists the
            releases.
          </p>
          <p class="hint">
            In a host page:
            <code
              >&lt;cp-component source="export" base-url="${baseUrl}" component-id="…"
              env="prod"&gt;</code
            >.
          </p>`;
  const error =
    state.lastError === null
      ? ''
      : noticePanel(
          'alert',
          html`<p>The last export failed ${when(state.lastErrorAt)}, and is retried with backoff: ${state.lastError}</p>`,
        );
  return html`<p><strong>Static export is on.</strong></p>
    ${where}
    <dl>
      <dt>Last complete export</dt>
      <dd>${when(state.exportedAt)}</dd>
    </dl>
    ${error}`;
}

/** An organization's static export: the switch, where it is served, and how the last export went. */
export function staticExportPage(content: StaticExportPageContent): string {
  const base = `/orgs/${content.organization.id}/export`;
  const { state, chrome } = content;
  const button = (value: 'on' | 'off', label: string, style?: 'secondary' | 'danger') =>
    actionForm({ action: base, csrf: chrome.csrf, label, style, fields: { enabled: value }, inline: true });
  return layout({
    title: 'Static export',
    chrome,
    body: html`<h1>Static export of ${content.organization.name}</h1>
      ${noticeBox(content.notice)} ${stateSection(content)}
      <p class="hint">
        Each released environment of each component is written as
        <code>components/&lt;component id&gt;/&lt;environment&gt;.json</code>, the same bytes as
        <code>/consume?id=…&amp;env=…</code>, plus <code>manifest.json</code> and the host SDK's frame
        document (<code>host/frame/…</code>), which iframe isolation loads from the export. Serve the export
        from an origin that holds nothing else, or add the frame document's header at the CDN
        (<code>docs/static-export.md</code>). Previews are never exported. Turning the export off removes these files.
      </p>
      ${state.enabled ? html`${button('on', 'Export everything again', 'secondary')} ${button('off', 'Turn off', 'danger')}` : button('on', 'Turn on')}`,
  });
}
