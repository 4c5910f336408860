import type { Variant } from '@cp/domain';
import { csrfInput, html, type SafeHtml } from '@cp/web-forms';
import type { GuardField, StartForm } from '../../routes/rollout-start-form.js';
import type { Gate } from '../parts/disabled-reason.js';

/** Each threshold as people read it, with its unit. */
const GUARD_LABELS: Readonly<Record<GuardField, { label: string; hint: string }>> = {
  minSessionsPerArm: { label: 'Sessions per arm before advancing', hint: 'each arm, at the current stage' },
  windowSessions: { label: 'Candidate sessions per window', hint: 'a judging window closes at this many' },
  minErrorRateRise: { label: 'Error rate rise that counts (percentage points)', hint: '1 = the candidate 1 point above the release' },
  minZ: { label: 'Two-proportion z at least', hint: 'how sure the rise is not chance' },
  regressedWindows: { label: 'Regressed windows in a row that roll back', hint: '' },
  sampleRatioP: { label: 'Sample-ratio p that pauses', hint: '0 turns the check off' },
};

export interface RolloutStartFormInput {
  readonly action: string;
  readonly csrf: string;
  readonly form: StartForm;
  /** Variants that may be the candidate (not the release), newest first. */
  readonly candidates: readonly Variant[];
  /** Viewers, or nothing to start against: every control disabled, pointing at the reason. */
  readonly gate: Gate;
  /** Beside the button: a member's start in a protected environment sends a release request. */
  readonly note: SafeHtml | '';
}

/** Start a rollout: the candidate, its stages (default 1/5/25/50/100%, an hour each) and the guard's thresholds. */
export function rolloutStartForm(s: RolloutStartFormInput): SafeHtml {
  const off = s.gate.disabled;
  return html`<form method="post" action="${s.action}" class="stack">${csrfInput(s.csrf)}
<p><label for="candidate">Candidate variant</label> <select id="candidate" name="candidate"${off}><option value="">Choose a variant</option>${s.candidates.map(
    (v) => html`<option value="${v.id}"${v.id === s.form.candidate ? html` selected` : ''}>v${v.sequence}</option>`,
  )}</select></p>
<fieldset><legend>Stages</legend>
<p class="hint">The candidate's share at each stage, rising; the guard advances a stage once its hold time has passed and each arm has enough sessions. Leave a row empty for fewer stages.</p>
<ol class="stack">
${s.form.stages.map(
  (row, i) => html`<li class="inline"><label for="stage-${i}-weight">Stage ${i + 1} weight (%)</label> <input type="text" inputmode="decimal" id="stage-${i}-weight" name="stages.${i}.weight" value="${row.weight}" size="7"${off}>
<label for="stage-${i}-hold">hold (minutes)</label> <input type="text" inputmode="numeric" id="stage-${i}-hold" name="stages.${i}.hold" value="${row.hold}" size="5"${off}></li>`,
)}
</ol></fieldset>
<fieldset><legend>Guard</legend>
<p class="hint">Each threshold starts at its default; an emptied field is the default again.</p>
${(Object.keys(GUARD_LABELS) as GuardField[]).map(
  (field) => html`<p><label for="guard-${field}">${GUARD_LABELS[field].label}</label> <input type="text" inputmode="decimal" id="guard-${field}" name="guard.${field}" value="${s.form.guard[field]}" size="8"${off}>${GUARD_LABELS[field].hint === '' ? '' : html` <span class="hint">${GUARD_LABELS[field].hint}</span>`}</p>`,
)}
</fieldset>
<p class="inline"><button type="submit"${off}>Start rollout</button>${s.note}</p>
${s.gate.note}
</form>`;
}
