import { canPublishTo, LIVE_ROLLOUT_STATES, percentOf, Permission, type Component, type ExperienceView, type Role, type RolloutView, type UsageBucket, type Variant } from '@cp/domain';
import { errorBox, html, noticeBox, type SafeHtml } from '@cp/web-forms';
import type { StartForm } from '../../routes/rollout-start-form.js';
import { rolloutPath } from '../experiences/paths.js';
import { type Chrome, layout, when } from '../layout.js';
import { actionForm } from '../parts/action-form.js';
import { disabledWithReason, type Gate } from '../parts/disabled-reason.js';
import { listTable } from '../parts/list-table.js';
import { roleGate } from '../parts/role-gate.js';
import { protectedNote } from '../protected-note.js';
import { count } from '../usage/format.js';
import { rolloutCharts } from './rollout-charts.js';
import { rolloutStartForm } from './rollout-start-form.js';

export interface RolloutPageContent {
  readonly component: Component;
  /** The environment, and whether an experience is live there (one of the two at a time). */
  readonly experience: ExperienceView;
  /** The live rollout, else the last one; null when the environment never had one. */
  readonly view: RolloutView | null;
  /** Render rollups over the rollout's time (its charts). */
  readonly renders: { readonly buckets: readonly UsageBucket[]; readonly from: Date; readonly to: Date; readonly bucketSeconds: number } | null;
  readonly variants: readonly Variant[];
  readonly releaseId: string | null;
  readonly role: Role;
  readonly chrome: Chrome;
  readonly notice: string | null;
  /** A refused start (422) or a stale change (409): the message, on the same page. */
  readonly error: string | null;
  readonly startForm: StartForm;
}

const STATES: Readonly<Record<string, string>> = {
  running: 'running',
  paused: 'paused',
  promoted: 'promoted (the candidate is the release)',
  stopped: 'stopped',
  rolled_back: 'rolled back by the guard',
};

/**
 * A component environment's canary rollout: the live (or last) rollout's state, stage, weight and
 * reason, its buttons (each POST carries the revision the page showed, so a stale one is refused
 * with the conflict), the figures per arm and the guard's verdicts; when none is live, the start form.
 */
export function rolloutPage(c: RolloutPageContent): string {
  const { component, view } = c;
  const env = c.experience.environment;
  const path = rolloutPath(component.id, env.name);
  const label = (id: string) => {
    const v = c.variants.find((variant) => variant.id === id);
    return v === undefined ? 'an unknown variant' : `v${v.sequence}`;
  };
  const gate = roleGate(c.role, Permission.Publish, 'start and change rollouts', 'rollout-role-note');
  const asks = gate.allowed && !canPublishTo(c.role, env);
  const rollout = view?.rollout ?? null;
  const live = rollout !== null && LIVE_ROLLOUT_STATES.includes(rollout.state);
  const liveExperience = c.experience.live !== null && c.experience.live.definition.segments.length > 0;
  const startGate: Gate = gate.allowed
    ? disabledWithReason(
        c.releaseId === null
          ? `Nothing is released to ${env.name} yet: a canary is judged against the release. Publish a variant there first.`
          : liveExperience
            ? 'An experience is live here: publish it with no segments (turn it off) before starting a rollout (one of the two at a time).'
            : null,
        'start-blocked',
      )
    : gate;

  return layout({
    title: `Rollout of ${component.name} in ${env.name}`,
    chrome: c.chrome,
    body: html`<p><a href="/component/${component.id}">← ${component.name}</a></p>
<h1>Rollout of ${component.name} in ${env.name}</h1>
${noticeBox(c.notice)}
${errorBox(c.error)}
<p class="hint">A canary splits ${env.name} between the release${c.releaseId === null ? '' : ` (${label(c.releaseId)})`} and a candidate whose share grows stage by stage. A guard compares the two arms' session error rates every minute and rolls the candidate back by itself when it regresses.</p>
${rollout === null ? html`<p data-testid="rollout-state">${env.name} has had no rollout.</p>` : html`<h2>${live ? 'Live rollout' : 'Last rollout'}: ${label(rollout.candidateVariantId)} against ${label(rollout.baselineVariantId)}</h2>
${listTable({
  columns: ['State', 'Stage', 'Weight', 'Revision', 'Started', 'Ended', 'Reason'],
  rows: [html`<tr><td>${STATES[rollout.state] ?? rollout.state}</td><td>${rollout.stageIndex + 1} of ${rollout.stages.length}, since ${when(rollout.stageStartedAt)}</td><td>${percentOf(rollout.weight)}</td><td>${rollout.revision}</td><td>${when(rollout.startedAt)}</td><td>${rollout.endedAt === null ? '—' : when(rollout.endedAt)}</td><td>${rollout.reason ?? '—'}</td></tr>`],
})}
${live ? controls(c, rollout, gate, asks, path) : ''}
<h3>Stages</h3>
${listTable({
  columns: ['Stage', 'Weight', 'Hold'],
  rows: rollout.stages.map((stage, i) => html`<tr><th scope="row">${i + 1}${i === rollout.stageIndex ? ' (current)' : ''}</th><td>${percentOf(stage.weight)}</td><td>${stage.holdMinutes} min</td></tr>`),
})}
${view !== null && view.stage !== null && view.openWindow !== null ? html`<h3>Sessions now</h3>
${listTable({
  columns: ['Arm', 'This stage', 'Open window'],
  rows: [
    html`<tr><th scope="row">${label(rollout.candidateVariantId)} (candidate)</th><td>${count(view.stage.candidate.sessions)} (${count(view.stage.candidate.errorSessions)} with errors)</td><td>${count(view.openWindow.candidate.sessions)} (${count(view.openWindow.candidate.errorSessions)} with errors)</td></tr>`,
    html`<tr><th scope="row">${label(rollout.baselineVariantId)} (release)</th><td>${count(view.stage.release.sessions)} (${count(view.stage.release.errorSessions)} with errors)</td><td>${count(view.openWindow.release.sessions)} (${count(view.openWindow.release.errorSessions)} with errors)</td></tr>`,
  ],
})}` : ''}
${view === null || c.renders === null ? '' : rolloutCharts({ rollout, windows: view.windows, renders: c.renders.buckets, from: c.renders.from, to: c.renders.to, bucketSeconds: c.renders.bucketSeconds, candidate: label(rollout.candidateVariantId), release: label(rollout.baselineVariantId) })}`}
${live ? '' : html`<h2 id="start">Start a rollout</h2>
${rolloutStartForm({
  action: `${path}/start`,
  csrf: c.chrome.csrf,
  form: c.startForm,
  candidates: c.variants.filter((v) => v.id !== c.releaseId),
  gate: startGate,
  note: asks ? protectedNote(env.name, 'rollout-request') : '',
})}`}`,
  });
}

/** Advance, Pause or Resume, Promote and Stop, each its own POST with the revision the page showed. */
function controls(c: RolloutPageContent, rollout: NonNullable<RolloutPageContent['view']>['rollout'], gate: Gate, asks: boolean, path: string): SafeHtml {
  const revision = { expectedRevision: String(rollout.revision) };
  const atLast = rollout.stageIndex >= rollout.stages.length - 1;
  const advanceGate = gate.allowed
    ? disabledWithReason(
        atLast
          ? 'The rollout is at its last stage: promote it to release the candidate, or stop it.'
          : asks
            ? `${c.experience.environment.name} is protected: only owners and admins advance a rollout there.`
            : null,
        'advance-blocked',
        'span',
      )
    : gate;
  const form = (verb: string, label: string, disabled: SafeHtml | '', style?: 'secondary' | 'danger') =>
    actionForm({ action: `${path}/${verb}`, csrf: c.chrome.csrf, label, fields: revision, disabled, inline: true, style });
  const paused = rollout.state === 'paused';
  return html`<p class="inline">${form('advance', 'Advance', advanceGate.disabled)}
${paused ? form('resume', 'Resume', gate.disabled, 'secondary') : form('pause', 'Pause', gate.disabled, 'secondary')}
${form('promote', 'Promote', gate.disabled, 'secondary')}
${gate.allowed ? advanceGate.note : ''}${asks ? protectedNote(c.experience.environment.name, 'promote-request') : ''}</p>
${actionForm({
  action: `${path}/stop`,
  csrf: c.chrome.csrf,
  label: 'Stop',
  style: 'danger',
  controls: html`<label for="stop-reason">Why (optional)</label> <input type="text" id="stop-reason" name="reason" maxlength="500" size="32"${gate.allowed ? '' : html` disabled`}> `,
  disabled: gate.disabled,
  inline: true,
})}
<p class="hint">Stop is the kill switch: weight 0, everyone on the release at once; it never needs an approval. Promote releases the candidate to everyone.</p>
${gate.note}`;
}
