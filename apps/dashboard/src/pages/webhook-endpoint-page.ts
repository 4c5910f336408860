import type { WebhookAttempt, WebhookEndpoint } from '@cp/domain';
import { csrfInput, html, noticeBox } from '@cp/web-forms';
import { layout, when } from './layout.js';
import { actionForm } from './parts/action-form.js';
import { disabledWithReason } from './parts/disabled-reason.js';
import { emptyState } from './parts/empty-state.js';
import { listTable } from './parts/list-table.js';
import { noticePanel } from './parts/notice-panel.js';
import type { OrganizationPageContent } from './parts/organization-page.js';
import { eventTypeBoxes, signingSecretOnce } from './webhooks-page.js';

export interface WebhookEndpointPageContent extends OrganizationPageContent {
  readonly endpoint: WebhookEndpoint;
  readonly attempts: readonly WebhookAttempt[];
  /** Just rotated: the new secret, shown on this answer only. */
  readonly rotatedSecret?: string;
}

/** One endpoint: why it is disabled (with "Enable"), its settings, secret rotation, deletion, recent deliveries with "Redeliver". */
export function webhookEndpointPage(content: WebhookEndpointPageContent): string {
  const { organization, endpoint, attempts, chrome } = content;
  const base = `/orgs/${organization.id}/webhooks/${endpoint.id}`;
  const csrf = chrome.csrf;
  const disabled = endpoint.disabled
    ? noticePanel(
        'alert',
        html`<p><strong>Disabled after failed deliveries</strong> (${when(endpoint.disabled.at)}): ${endpoint.disabled.reason}</p>
<p>Fix the receiver, then enable the endpoint: new events are delivered again; redeliver the ones it missed below.</p>
${actionForm({ action: `${base}/enable`, csrf, label: 'Enable', inline: true })}`,
      )
    : '';
  const redeliver = disabledWithReason(endpoint.enabled ? null : 'Enable the endpoint to redeliver.', 'redeliver-note');
  const rows = attempts.map(
    (a) => html`<tr><td>${when(a.at)}</td><td><code>${a.eventType}</code><br><code class="mono">${a.messageId}</code></td><td>${a.attempt}</td><td>${a.delivered ? 'delivered' : 'failed'}</td>
<td>${a.responseStatus === null ? '—' : String(a.responseStatus)}</td><td>${a.durationMs} ms</td><td>${a.detail ?? ''}</td>
<td>${actionForm({ action: `${base}/messages/${a.messageId}/redeliver`, csrf, label: 'Redeliver', style: 'secondary', disabled: redeliver.disabled })}</td></tr>`,
  );
  return layout({
    title: 'Webhook endpoint',
    chrome,
    body: html`<h1>Webhook endpoint</h1>
<p><code>${endpoint.url}</code> · ${endpoint.enabled ? 'enabled' : 'disabled'} · added ${when(endpoint.createdAt)}</p>
${noticeBox(content.notice)}
${content.rotatedSecret ? signingSecretOnce('Secret rotated: deliveries from now on are signed with the new one.', content.rotatedSecret) : ''}
${disabled}
<h2>Settings</h2>
<form method="post" action="${base}">${csrfInput(csrf)}
${eventTypeBoxes('edit', endpoint.eventTypes)}
<p class="check"><input type="checkbox" id="edit-enabled" name="enabled" value="on"${endpoint.enabled ? html` checked` : ''}><label for="edit-enabled">Enabled</label></p>
<button type="submit">Save</button>
</form>
<h2>Recent deliveries</h2>
${attempts.length === 0 ? '' : redeliver.note}
${listTable({ columns: ['When', 'Event', 'Attempt', 'Result', 'Response', 'Duration', 'Detail', html`<span class="skip">Actions</span>`], rows, empty: emptyState('Nothing delivered yet.') })}
<h2>Signing secret</h2>
${actionForm({ action: `${base}/rotate`, csrf, label: 'Rotate secret', style: 'secondary', inline: true })}
<h2>Delete</h2>
${actionForm({ action: `${base}/delete`, csrf, label: 'Delete endpoint', style: 'danger', inline: true })}
<p><a href="/orgs/${organization.id}/webhooks">All webhooks</a></p>`,
  });
}
