import { describeScope, orderScopes, type ConnectedApplication } from '@cp/domain';
import { html, noticeBox } from '@cp/web-forms';
import { type Chrome, layout, when } from './layout.js';
import { actionForm } from './parts/action-form.js';
import { emptyState } from './parts/empty-state.js';
import { listTable } from './parts/list-table.js';

export interface ApplicationsPage {
  readonly applications: readonly ConnectedApplication[];
  /** The tool server's URL, for the empty state: assistants connected to it appear here. */
  readonly mcpUrl: string;
  readonly notice: string | null;
  readonly chrome: Chrome;
}

/** The user's connected applications, each with Revoke (the auth server's /account shows the same list). */
export function applicationsPage(page: ApplicationsPage): string {
  const rows = page.applications.map(
    (app) => html`<tr><th scope="row">${app.clientName}</th><td><ul>${orderScopes(app.scopes).map((scope) => html`<li>${describeScope(scope)}</li>`)}</ul></td><td>${when(app.grantedAt)}</td><td>${when(app.lastUsedAt)}</td>
<td>${actionForm({ action: `/applications/${app.grantId}/revoke`, csrf: page.chrome.csrf, label: 'Revoke', name: `Revoke ${app.clientName}`, style: 'danger' })}</td></tr>`,
  );
  return layout({
    title: 'Connected applications',
    chrome: page.chrome,
    body: html`<h1>Connected applications</h1>
${noticeBox(page.notice)}
${rows.length === 0 ? '' : html`<p>These applications can use your account until you revoke them. Revoking signs the application out within 30 seconds.</p>`}
${listTable({
  columns: ['Application', 'Can', 'Granted', 'Last used', html`<span class="hint">Action</span>`],
  rows,
  empty: emptyState(html`No application has access to your account. Assistants you connect to the tool server (<code>${page.mcpUrl}</code>) appear here.`),
})}`,
  });
}
