import type { ApiToken } from '@cp/domain';
import { html } from '@cp/web-forms';
import { scopeSummary } from '../credentials/scope-summary.js';
import { layout, when } from '../layout.js';
import { actionForm } from '../parts/action-form.js';
import type { OrganizationPageContent } from '../parts/organization-page.js';

export interface RevokeTokenPageContent extends OrganizationPageContent {
  readonly token: ApiToken;
  readonly componentNames: ReadonlyMap<string, string>;
}

/** The confirmation before revoking a token: what it is, what stops, and the button. */
export function revokeTokenPage(content: RevokeTokenPageContent): string {
  const { organization, chrome, token } = content;
  const base = `/orgs/${organization.id}/api-tokens`;
  const body =
    token.revokedAt !== null
      ? html`<p>This token was revoked ${when(token.revokedAt)}.</p><p><a href="${base}">Back to the API tokens</a></p>`
      : html`<p>Scripts and CI jobs that use <strong>${token.name}</strong> (<code>${token.prefix}…</code>, ${scopeSummary(token.scope, content.componentNames)}, last used ${when(token.lastUsedAt)}) are refused from their next exchange, and the access tokens it already gave stop within 30 seconds. This cannot be undone: make a new token if it is needed again.</p>
${actionForm({ action: `${base}/${token.id}/revoke`, csrf: chrome.csrf, label: 'Revoke this token', style: 'danger', inline: true })}
<p><a href="${base}">Cancel</a></p>`;
  return layout({
    title: `Revoke ${token.name}`,
    chrome,
    body: html`<h1>Revoke the API token ${token.name}?</h1>
${body}`,
  });
}
