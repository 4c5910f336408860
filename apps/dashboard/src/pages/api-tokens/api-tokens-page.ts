import { API_TOKEN_LIMITS, can, Permission, type ApiToken, type Environment } from '@cp/domain';
import { csrfInput, errorBox, html, noticeBox, type SafeHtml } from '@cp/web-forms';
import type { TokenForm } from '../../routes/credential-form.js';
import { scopeFieldset, type ComponentChoice } from '../credentials/scope-fieldset.js';
import { scopeSummary } from '../credentials/scope-summary.js';
import { layout, when } from '../layout.js';
import { emptyState } from '../parts/empty-state.js';
import { listTable } from '../parts/list-table.js';
import type { OrganizationPageContent } from '../parts/organization-page.js';
import { secretOnce } from '../parts/secret-once.js';

export interface ApiTokensPageContent extends OrganizationPageContent {
  readonly tokens: readonly ApiToken[];
  /** Who made each token, by user id (members of the organization). */
  readonly people: ReadonlyMap<string, string>;
  readonly environments: readonly Environment[];
  readonly components: readonly ComponentChoice[];
  readonly moreComponents: boolean;
  readonly now: Date;
  /** The form as typed (a refused one), or as it starts. */
  readonly form: TokenForm;
  /** Why the form was refused (422 and the like): the use case's message naming the field. */
  readonly refused?: string;
  /** Just created: its secret, shown on this answer only (never in a URL, never stored). */
  readonly created?: { readonly name: string; readonly secret: string };
}

export const EMPTY_TOKEN_FORM: Omit<TokenForm, 'access' | 'environments' | 'components' | 'componentIds' | 'protectedEnvironments'> = {
  name: '',
  expiresInDays: String(API_TOKEN_LIMITS.expiryDaysDefault),
};

const state = (token: ApiToken, now: Date): SafeHtml =>
  token.revokedAt !== null
    ? html`revoked ${when(token.revokedAt)}`
    : token.expiresAt.getTime() <= now.getTime()
      ? html`expired`
      : html`active`;

function row(content: ApiTokensPageContent, base: string, names: ReadonlyMap<string, string>, token: ApiToken): SafeHtml {
  const revoke =
    token.revokedAt === null ? html`<a href="${base}/${token.id}/revoke" aria-label="Revoke ${token.name}…">Revoke…</a>` : html``;
  return html`<tr data-testid="api-token"><th scope="row">${token.name}</th><td><code>${token.prefix}…</code></td><td>${scopeSummary(token.scope, names)}</td><td>${content.people.get(token.createdBy) ?? 'a former member'}</td><td>${when(token.createdAt)}</td><td>${when(token.expiresAt)}</td><td>${when(token.lastUsedAt)}</td><td>${state(token, content.now)}</td><td>${revoke}</td></tr>`;
}

function createForm(content: ApiTokensPageContent, base: string): SafeHtml {
  const { form, organization, chrome } = content;
  return html`<h2 id="new-token">New API token</h2>
${content.refused === undefined ? '' : errorBox(content.refused)}
<form method="post" action="${base}">${csrfInput(chrome.csrf)}
<p><label for="token-name">Name</label> <input type="text" id="token-name" name="name" value="${form.name}" required maxlength="${API_TOKEN_LIMITS.nameMaxLength}" size="32" placeholder="nightly release"></p>
<p><label for="token-days">Expires after (days)</label> <input type="number" id="token-days" name="expiresInDays" value="${form.expiresInDays}" min="${API_TOKEN_LIMITS.expiryDaysMin}" max="${API_TOKEN_LIMITS.expiryDaysMax}" required> <span class="hint">At most ${API_TOKEN_LIMITS.expiryDaysMax} days.</span></p>
${scopeFieldset({ idPrefix: 'token', form, role: organization.role, environments: content.environments, components: content.components, moreComponents: content.moreComponents, disabled: '' })}
<button type="submit">Create token</button>
</form>`;
}

/** An organization's API tokens (members: their own; owners and admins: all) and the form to make one. */
export function apiTokensPage(content: ApiTokensPageContent): string {
  const { organization, chrome, created } = content;
  const base = `/orgs/${organization.id}/api-tokens`;
  const names = new Map(content.components.map((c) => [c.id, c.name]));
  const whose = can(organization.role, Permission.ManageSetup)
    ? 'Every token of the organization, newest first.'
    : 'The tokens you made, newest first (owners and admins see every token of the organization).';
  return layout({
    title: 'API tokens',
    chrome,
    body: html`<h1>API tokens of ${organization.name}</h1>
${noticeBox(content.notice)}
${created === undefined
  ? ''
  : secretOnce({
      message: html`API token <strong>${created.name}</strong> created. Copy it now and keep it in your CI's secrets as <code>CPC_TOKEN</code>: it is shown only once, and nobody can show it again.`,
      label: 'API token',
      secret: created.secret,
    })}
<p class="hint">For <code>cpc</code> in scripts and in CI without OIDC (<code>CPC_TOKEN</code>). A token acts as the person who made it, never beyond their current role, narrowed to what it was given. ${whose}</p>
${listTable({
  columns: ['Name', 'Starts with', 'Scope', 'Created by', 'Created', 'Expires', 'Last used', 'State', html`<span class="skip">Actions</span>`],
  rows: content.tokens.map((token) => row(content, base, names, token)),
  empty: emptyState('No API tokens yet.'),
})}
${createForm(content, base)}`,
  });
}
