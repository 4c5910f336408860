import { describeScope, orderScopes, type ConnectedApplication } from '@cp/domain';
import { csrfInput, html, noticeBox } from '@cp/web-forms';
import { type Chrome, layout, when } from './layout.js';

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
<td><form method="post" action="/applications/${app.grantId}/revoke">${csrfInput(page.chrome.csrf)}<button type="submit" class="danger" aria-label="Revoke ${app.clientName}">Revoke</button></form></td></tr>`,
  );
  return layout({
    title: 'Connected applications',
    chrome: page.chrome,
    body: html`<h1>Connected applications</h1>
${noticeBox(page.notice)}
${page.applications.length === 0 ? html`<p>No application has access to your account. Assistants you connect to the tool server (<code>${page.mcpUrl}</code>) appear here.</p>` : html`<p>These applications can use your account until you revoke them. Revoking signs the application out within 30 seconds.</p>
<table><thead><tr><th scope="col">Application</th><th scope="col">Can</th><th scope="col">Granted</th><th scope="col">Last used</th><th scope="col"><span class="hint">Action</span></th></tr></thead>
<tbody>${rows}</tbody></table>`}`,
  });
}
