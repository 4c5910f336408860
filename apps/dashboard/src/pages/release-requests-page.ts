import {
  MAX_DECLINE_REASON_LENGTH,
  percentOf,
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
        A member's publish to a protected environment waits here for an owner or admin: a release, an
        experience or a canary rollout. Approving does what it asks (releases the version, publishes
        the experience or starts the rollout), recorded with both people.
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
          <span class="hint" data-testid="plan-kind">${PLAN_KINDS[r.plan.kind]}:</span>
          <a href="/component/${r.componentId}">${r.componentName}</a> ${planSummary(r)}
          <strong>${r.environmentName}</strong>, asked by ${person(r.requestedBy)}
          ${when(r.requestedAt)}: <strong>${r.state}</strong>${decision(r, person)}
          ${r.state === 'pending' ? actions(r, list.canDecide, csrf, back) : ''}
        </li>`,
    )}
  </ul>`;
}

/** What a request asks for, as its row begins. */
const PLAN_KINDS: Readonly<Record<ReleaseRequest['plan']['kind'], string>> = {
  release: 'Release',
  experience: 'Experience',
  rollout: 'Rollout',
};

/** "v3 to", "an experience of 2 segments on v3 in", "a canary of v4 (1% → 100%, 5 stages) in". */
function planSummary(r: ReleaseRequest): string {
  const { plan } = r;
  switch (plan.kind) {
    case 'release':
      return `v${r.variantSequence} to`;
    case 'experience': {
      const count = plan.definition.segments.length;
      const what = count === 0 ? 'turning the experience off' : `an experience of ${count} ${count === 1 ? 'segment' : 'segments'}`;
      const from = plan.republishedFrom === null ? '' : ` (revision ${plan.republishedFrom} again)`;
      return `${what}${from}, ${plan.phase === 'keep' ? 'users keeping their buckets' : 'a new phase'}, on v${r.variantSequence} in`;
    }
    case 'rollout': {
      const first = plan.stages[0];
      const last = plan.stages[plan.stages.length - 1];
      const range = first === undefined || last === undefined ? '' : ` (${percentOf(first.weight)} → ${percentOf(last.weight)}, ${plan.stages.length} ${plan.stages.length === 1 ? 'stage' : 'stages'})`;
      return `a canary of v${r.variantSequence}${range} in`;
    }
  }
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
