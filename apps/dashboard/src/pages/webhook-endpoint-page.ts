import type { MemberOrganization, WebhookAttempt, WebhookEndpoint } from '@cp/domain';
import { csrfInput, html, noticeBox } from '@cp/web-forms';
import { type Chrome, layout, when } from './layout.js';
import { eventTypeBoxes, secretOnce } from './webhooks-page.js';

export interface WebhookEndpointPageContent {
  readonly organization: MemberOrganization;
  readonly endpoint: WebhookEndpoint;
  readonly attempts: readonly WebhookAttempt[];
  readonly chrome: Chrome;
  readonly notice: string | null;
  /** Just rotated: the new secret, shown on this answer only. */
  readonly rotatedSecret?: string;
}

/** One endpoint: why it is disabled (with "Enable"), its settings, secret rotation, deletion, recent deliveries with "Redeliver". */
export function webhookEndpointPage(content: WebhookEndpointPageContent): string {
  const { organization, endpoint, attempts, chrome } = content;
  const base = `/orgs/${organization.id}/webhooks/${endpoint.id}`;
  const csrf = csrfInput(chrome.csrf);
  const disabled = endpoint.disabled
    ? html`<div class="error" role="alert">
        <p>
          <strong>Disabled after failed deliveries</strong> (${when(endpoint.disabled.at)}):
          ${endpoint.disabled.reason}
        </p>
        <p>
          Fix the receiver, then enable the endpoint: new events are delivered again; redeliver the
          ones it missed below.
        </p>
        <form method="post" action="${base}/enable" class="inline">
          ${csrf}<button type="submit">Enable</button>
        </form>
      </div>`
    : '';
  const rows = attempts.map(
    (a) =>
      html`<tr>
        <td>${when(a.at)}</td>
        <td><code>${a.eventType}</code><br /><code class="mono">${a.messageId}</code></td>
        <td>${a.attempt}</td>
        <td>${a.delivered ? 'delivered' : 'failed'}</td>
        <td>${a.responseStatus === null ? '—' : String(a.responseStatus)}</td>
        <td>${a.durationMs} ms</td>
        <td>${a.detail ?? ''}</td>
        <td>
          <form method="post" action="${base}/messages/${a.messageId}/redeliver">
            ${csrf}<button
              type="submit"
              class="secondary"
              ${endpoint.enabled ? '' : html` disabled`}
            >
              Redeliver
            </button>
          </form>
        </td>
      </tr>`,
  );
  return layout({
    title: 'Webhook endpoint',
    chrome,
    body: html`<h1>Webhook endpoint</h1>
      <p>
        <code>${endpoint.url}</code> · ${endpoint.enabled ? 'enabled' : 'disabled'} · added
        ${when(endpoint.createdAt)}
      </p>
      ${noticeBox(content.notice)}
      ${content.rotatedSecret ? secretOnce('Secret rotated: deliveries from now on are signed with the new one.', content.rotatedSecret) : ''}
      ${disabled}
      <h2>Settings</h2>
      <form method="post" action="${base}">
        ${csrf} ${eventTypeBoxes('edit', endpoint.eventTypes)}
        <p>
          <input
            type="checkbox"
            id="edit-enabled"
            name="enabled"
            value="on"
            ${endpoint.enabled ? html` checked` : ''}
          /><label for="edit-enabled">Enabled</label>
        </p>
        <button type="submit">Save</button>
      </form>
      <h2>Recent deliveries</h2>
      ${
        attempts.length === 0
          ? html`<p>Nothing delivered yet.</p>`
          : html`<table>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">Event</th>
                  <th scope="col">Attempt</th>
                  <th scope="col">Result</th>
                  <th scope="col">Response</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Detail</th>
                  <th scope="col"></th>
                </tr>
              </thead>
              <tbody>
                ${rows}
              </tbody>
            </table>`
      }
      <h2>Signing secret</h2>
      <form method="post" action="${base}/rotate" class="inline">
        ${csrf}<button type="submit" class="secondary">Rotate secret</button>
      </form>
      <h2>Delete</h2>
      <form method="post" action="${base}/delete" class="inline">
        ${csrf}<button type="submit" class="danger">Delete endpoint</button>
      </form>
      <p><a href="/orgs/${organization.id}/webhooks">All webhooks</a></p>`,
  });
}
