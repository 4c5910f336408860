import {
  MAX_DECLINE_REASON_LENGTH,
  type ReleaseRequest,
  type ReleaseRequestList,
} from '@cp/domain';
import { html, noticeBox, type SafeHtml } from '@cp/web-forms';
import { type Chrome, layout, when } from './layout.js';
import { actionForm } from './parts/action-form.js';
import { disabledWithReason } from './parts/disabled-reason.js';
import { emptyState } from './parts/empty-state.js';

/** The organization's release requests: pending first, then recent decisions. */
export function releaseRequestsPage(
  list: ReleaseRequestList,
  chrome: Chrome,
  notice: string | null,
  organizationId: string,
): string {
  return layout({
    title: 'Release requests',
    chrome,
    body: html`<h1>Release requests</h1>
      ${noticeBox(notice)}
      <p class="hint">
        A member's publish to a protected environment waits here for an owner or admin. Approving
        releases the requested version, recorded with both people.
      </p>
      ${list.requests.length === 0 ? emptyState('No release request yet.') : releaseRequestsSection(list, chrome.csrf, `/orgs/${organizationId}/release-requests`)}`,
  });
}

/** The rows (with Approve / Decline for owners and admins), shared by this page and the component page. */
export function releaseRequestsSection(
  list: ReleaseRequestList,
  csrf: string,
  back: string,
): SafeHtml {
  const person = (id: string | null) =>
    id === null ? '—' : (list.people[id] ?? 'a former member');
  return html`<ul class="requests">
    ${list.requests.map(
      (r) =>
        html`<li data-testid="release-request">
          <a href="/component/${r.componentId}">${r.componentName}</a> v${r.variantSequence} to
          <strong>${r.environmentName}</strong>, asked by ${person(r.requestedBy)}
          ${when(r.requestedAt)}: <strong>${r.state}</strong>${decision(r, person)}
          ${r.state === 'pending' ? actions(r, list.canDecide, csrf, back) : ''}
        </li>`,
    )}
  </ul>`;
}

const decision = (r: ReleaseRequest, person: (id: string | null) => string): SafeHtml | string =>
  r.state === 'pending'
    ? ''
    : html` by ${person(r.decidedBy)}
      ${r.decidedAt === null ? '' : when(r.decidedAt)}${r.declineReason === null ? '' : html` — “${r.declineReason}”`}`;

function actions(r: ReleaseRequest, canDecide: boolean, csrf: string, back: string): SafeHtml {
  const gate = disabledWithReason(canDecide ? null : 'Only owners and admins approve or decline release requests.', `decide-${r.id}`, 'span');
  const decide = (verb: string) => `/release-requests/${r.id}/${verb}`;
  return html`${actionForm({ action: decide('approve'), csrf, label: 'Approve', fields: { back }, disabled: gate.disabled, inline: true })}
${actionForm({
  action: decide('decline'),
  csrf,
  label: 'Decline',
  style: 'secondary',
  fields: { back },
  controls: html`<label for="reason-${r.id}">Reason</label> <input type="text" id="reason-${r.id}" name="reason" maxlength="${MAX_DECLINE_REASON_LENGTH}" required${canDecide ? '' : html` disabled`}> `,
  disabled: gate.disabled,
  inline: true,
})}
${gate.note}`;
}
