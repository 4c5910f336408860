import {
  Limits,
  WEBHOOK_EVENT_TYPES,
  type WebhookEndpoint,
} from '@cp/domain';
import { csrfInput, html, noticeBox, type SafeHtml } from '@cp/web-forms';
import { layout, when } from './layout.js';
import { emptyState } from './parts/empty-state.js';
import { listTable } from './parts/list-table.js';
import { noticePanel } from './parts/notice-panel.js';
import type { OrganizationPageContent } from './parts/organization-page.js';
import { secretOnce } from './parts/secret-once.js';

export interface WebhooksPageContent extends OrganizationPageContent {
  readonly endpoints: readonly WebhookEndpoint[];
  /** Just created: its signing secret, shown on this answer only (never in a URL). */
  readonly created?: { readonly url: string; readonly secret: string };
}

/** The signing secret, shown once (on creation and on rotation). */
export const signingSecretOnce = (what: string, secret: string): SafeHtml =>
  secretOnce({
    message: html`${what} Copy the signing secret now: it is shown only once.`,
    label: 'Signing secret',
    secret,
  });

/** The endpoints the worker disabled (their last retry failed): said at the top, with the way back. */
export const disabledNotice = (base: string, endpoints: readonly WebhookEndpoint[]): SafeHtml => {
  const disabled = endpoints.filter((e) => e.disabled !== null);
  if (disabled.length === 0) return html``;
  return noticePanel(
    'alert',
    html`<p><strong>Deliveries stopped.</strong> These endpoints failed every retry of a delivery and were disabled:</p>
<ul>${disabled.map((e) => html`<li><a href="${base}/${e.id}">${e.url}</a>: ${e.disabled!.reason} (${when(e.disabled!.at)}). Open it to enable it again.</li>`)}</ul>`,
  );
};

export const eventTypeBoxes = (idPrefix: string, checked: readonly string[]): SafeHtml =>
  html`<fieldset><legend>Events</legend>
${WEBHOOK_EVENT_TYPES.map((type) => html`<span class="check"><input type="checkbox" id="${idPrefix}-${type}" name="eventTypes" value="${type}"${checked.includes(type) ? html` checked` : ''}><label for="${idPrefix}-${type}"><code>${type}</code></label></span> `)}
</fieldset>`;

const state = (endpoint: WebhookEndpoint): string =>
  endpoint.enabled ? 'enabled' : endpoint.disabled ? 'disabled after failures' : 'disabled';

/** An organization's webhook endpoints and the form to add one (owners and admins; others are refused before this page). */
export function webhooksPage(content: WebhooksPageContent): string {
  const { organization, endpoints, chrome } = content;
  const base = `/orgs/${organization.id}/webhooks`;
  const rows = endpoints.map(
    (e) => html`<tr><th scope="row"><a href="${base}/${e.id}">${e.url}</a></th><td>${e.eventTypes.join(', ')}</td><td>${state(e)}</td><td>${when(e.createdAt)}</td></tr>`,
  );
  return layout({
    title: 'Webhooks',
    chrome,
    body: html`<h1>Webhooks of ${organization.name}</h1>
${noticeBox(content.notice)}
${content.created ? signingSecretOnce(`Endpoint ${content.created.url} added.`, content.created.secret) : ''}
${disabledNotice(base, endpoints)}
<p class="hint">Each event is POSTed as JSON, signed as the Standard Webhooks specification says (<code>webhook-id</code>, <code>webhook-timestamp</code>, <code>webhook-signature</code>): verify it with a Standard Webhooks library and the endpoint's secret. Failed deliveries are retried for about a day. At most ${Limits.webhookEndpointsPerOrganization} endpoints.</p>
${listTable({ columns: ['URL', 'Events', 'State', 'Added'], rows, empty: emptyState('No endpoints yet.') })}
<h2>Add an endpoint</h2>
<form method="post" action="${base}">${csrfInput(chrome.csrf)}
<p><label for="webhook-url">URL</label> <input type="url" id="webhook-url" name="url" required maxlength="${Limits.webhookUrlMaxLength}" size="60" placeholder="https://example.com/webhooks"></p>
${eventTypeBoxes('new', WEBHOOK_EVENT_TYPES)}
<p class="check"><input type="checkbox" id="new-enabled" name="enabled" value="on" checked><label for="new-enabled">Enabled</label></p>
<button type="submit">Add endpoint</button>
</form>`,
  });
}
