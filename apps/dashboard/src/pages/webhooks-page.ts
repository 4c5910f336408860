import {
  Limits,
  WEBHOOK_EVENT_TYPES,
  type MemberOrganization,
  type WebhookEndpoint,
} from '@cp/domain';
import { csrfInput, html, noticeBox, type SafeHtml } from '@cp/web-forms';
import { type Chrome, layout, when } from './layout.js';

export interface WebhooksPageContent {
  readonly organization: MemberOrganization;
  readonly endpoints: readonly WebhookEndpoint[];
  readonly chrome: Chrome;
  readonly notice: string | null;
  /** Just created: its signing secret, shown on this answer only (never in a URL). */
  readonly created?: { readonly url: string; readonly secret: string };
}

/** The secret, shown once, as invitation links and preview keys are. */
export const secretOnce = (what: string, secret: string): SafeHtml =>
  html`<div class="notice" role="status">
    <p>${what} Copy the signing secret now: it is shown only once.</p>
    <label for="new-secret">Signing secret</label>
    <input
      type="text"
      id="new-secret"
      readonly
      value="${secret}"
      size="60"
      class="mono"
      autocomplete="off"
      spellcheck="false"
    />
  </div>`;

/** The endpoints the worker disabled (their last retry failed): said at the top, with the way back. */
export const disabledNotice = (base: string, endpoints: readonly WebhookEndpoint[]): SafeHtml => {
  const disabled = endpoints.filter((e) => e.disabled !== null);
  if (disabled.length === 0) return html``;
  return html`<div class="error" role="alert">
    <p>
      <strong>Deliveries stopped.</strong> These endpoints failed every retry of a delivery and were
      disabled:
    </p>
    <ul>
      ${disabled.map((e) => html`<li><a href="${base}/${e.id}">${e.url}</a>: ${e.disabled!.reason} (${when(e.disabled!.at)}). Open it to enable it again.</li>`)}
    </ul>
  </div>`;
};

export const eventTypeBoxes = (idPrefix: string, checked: readonly string[]): SafeHtml =>
  html`<fieldset>
    <legend>Events</legend>
    ${WEBHOOK_EVENT_TYPES.map(
      (type) =>
        html`<input
            type="checkbox"
            id="${idPrefix}-${type}"
            name="eventTypes"
            value="${type}"
            ${checked.includes(type) ? html` checked` : ''}
          /><label for="${idPrefix}-${type}"><code>${type}</code></label> `,
    )}
  </fieldset>`;

const state = (endpoint: WebhookEndpoint): string =>
  endpoint.enabled ? 'enabled' : endpoint.disabled ? 'disabled after failures' : 'disabled';

/** An organization's webhook endpoints and the form to add one (owners and admins; others are refused before this page). */
export function webhooksPage(content: WebhooksPageContent): string {
  const { organization, endpoints, chrome } = content;
  const base = `/orgs/${organization.id}/webhooks`;
  const rows = endpoints.map(
    (e) =>
      html`<tr>
        <th scope="row"><a href="${base}/${e.id}">${e.url}</a></th>
        <td>${e.eventTypes.join(', ')}</td>
        <td>${state(e)}</td>
        <td>${when(e.createdAt)}</td>
      </tr>`,
  );
  return layout({
    title: 'Webhooks',
    chrome,
    body: html`<h1>Webhooks of ${organization.name}</h1>
      ${noticeBox(content.notice)}
      ${content.created ? secretOnce(`Endpoint ${content.created.url} added.`, content.created.secret) : ''}
      ${disabledNotice(base, endpoints)}
      <p class="hint">
        Each event is POSTed as JSON, signed as the Standard Webhooks specification says
        (<code>webhook-id</code>,
        <code>webhook-timestamp</code>, <code>webhook-signature</code>): verify it with a Standard
        Webhooks library and the endpoint's secret. Failed deliveries are retried for about a day.
        At most ${Limits.webhookEndpointsPerOrganization} endpoints.
      </p>
      ${
        endpoints.length === 0
          ? html`<p>No endpoints yet.</p>`
          : html`<table>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">State</th>
                  <th scope="col">Added</th>
                </tr>
              </thead>
              <tbody>
                ${rows}
              </tbody>
            </table>`
      }
      <h2>Add an endpoint</h2>
      <form method="post" action="${base}">
        ${csrfInput(chrome.csrf)}
        <p>
          <label for="webhook-url">URL</label>
          <input
            type="url"
            id="webhook-url"
            name="url"
            required
            maxlength="${Limits.webhookUrlMaxLength}"
            size="60"
            placeholder="https://example.com/webhooks"
          />
        </p>
        ${eventTypeBoxes('new', WEBHOOK_EVENT_TYPES)}
        <p>
          <input type="checkbox" id="new-enabled" name="enabled" value="on" checked /><label
            for="new-enabled"
            >Enabled</label
          >
        </p>
        <button type="submit">Add endpoint</button>
      </form>`,
  });
}
