import { describeScope, orderScopes, type ConnectedApplication } from '@cp/domain';
import { csrfInput, html, noticeBox, type SafeHtml } from '@cp/web-forms';
import { layout } from './layout.js';

export interface AccountPage {
  readonly csrf: string;
  readonly email: string;
  readonly applications: readonly ConnectedApplication[];
  readonly notice: string | null;
}

/** UTC, to the minute: the same for every reader, and it is all the precision a person needs here. */
const when = (date: Date | null): SafeHtml =>
  date === null
    ? html`never`
    : html`<time datetime="${date.toISOString()}">${date.toISOString().slice(0, 16).replace('T', ' ')} UTC</time>`;

export const signOutButton = (csrf: string): SafeHtml =>
  html`<form method="post" action="/logout">${csrfInput(csrf)}<button type="submit" class="secondary">Sign out</button></form>`;

export function accountPage(page: AccountPage): string {
  const rows = page.applications.map(
    (app) => html`<tr>
<th scope="row">${app.clientName}</th>
<td><ul class="scopes">${orderScopes(app.scopes).map((scope) => html`<li>${describeScope(scope)}</li>`)}</ul></td>
<td>${when(app.grantedAt)}</td>
<td>${when(app.lastUsedAt)}</td>
<td><form method="post" action="/account/applications/${app.grantId}/revoke">${csrfInput(page.csrf)}<button type="submit" class="danger" aria-label="Revoke ${app.clientName}">Revoke</button></form></td>
</tr>`,
  );
  return layout({
    title: 'Your account',
    wide: true,
    nav: html`<nav aria-label="Account"><span>Signed in as <strong>${page.email}</strong></span>${signOutButton(page.csrf)}</nav>`,
    body: html`<h1>Your account</h1>
${noticeBox(page.notice)}
<h2>Connected applications</h2>
${
  page.applications.length === 0
    ? html`<p>No application has access to your account.</p>`
    : html`<p>These applications can use your account until you revoke them. Revoking signs the application out within 30 seconds.</p>
<table>
<thead><tr><th scope="col">Application</th><th scope="col">Can</th><th scope="col">Granted</th><th scope="col">Last used</th><th scope="col"><span class="hint">Action</span></th></tr></thead>
<tbody>${rows}</tbody>
</table>`
}`,
  });
}
