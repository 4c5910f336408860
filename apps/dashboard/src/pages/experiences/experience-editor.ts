import { RULE_OPERATORS, type Variant } from '@cp/domain';
import { csrfInput, html, type SafeHtml } from '@cp/web-forms';
import type { EditorArm, EditorRule, EditorSegment } from '../../routes/experience-editor-form.js';
import type { Gate } from '../parts/disabled-reason.js';

/** What each operator means, beside its name in the select. */
const OPERATOR_NAMES: Readonly<Record<(typeof RULE_OPERATORS)[number], string>> = {
  equals: 'equals (one value)',
  in: 'is one of',
  not_in: 'is present and none of',
  prefix: 'starts with (one value)',
};

export interface ExperienceEditor {
  /** Where the form posts (save, add, remove). */
  readonly action: string;
  readonly csrf: string;
  readonly segments: readonly EditorSegment[];
  /** The component's variants, newest first; `releaseId` is the environment's release (the fallback). */
  readonly variants: readonly Variant[];
  readonly releaseId: string | null;
  /** Viewers: every control disabled, pointing at the reason. */
  readonly gate: Gate;
}

/**
 * The draft as one form without scripts: each segment a fieldset of its name, its rules (attribute,
 * operator, comma-separated values) and its arms (a variant and its weight in percent, several for a
 * split). Add and remove are buttons of the form that answer it with the change (nothing saved); the
 * first button is Save, so Enter in a field saves.
 */
export function experienceEditor(e: ExperienceEditor): SafeHtml {
  const off = e.gate.disabled;
  const button = (op: string, label: string, name: string, style = 'secondary') =>
    html`<button type="submit" name="op" value="${op}"${style === '' ? '' : html` class="${style}"`}${name === label ? '' : html` aria-label="${name}"`}${off}>${label}</button>`;
  const variantSelect = (id: string, name: string, chosen: string) =>
    html`<select id="${id}" name="${name}"${off}><option value=""${chosen === '' ? html` selected` : ''}>Choose a variant</option>${e.variants.map(
      (v) => html`<option value="${v.id}"${v.id === chosen ? html` selected` : ''}>v${v.sequence}${v.id === e.releaseId ? ' (the release)' : ''}</option>`,
    )}${chosen !== '' && !e.variants.some((v) => v.id === chosen) ? html`<option value="${chosen}" selected>an unknown variant</option>` : ''}</select>`;

  const rule = (s: number, r: number, value: EditorRule) => {
    const at = `segments.${s}.rules.${r}`;
    const id = `s${s}-r${r}`;
    const known = (RULE_OPERATORS as readonly string[]).includes(value.operator);
    return html`<li class="inline"><label for="${id}-attribute">Attribute</label> <input type="text" id="${id}-attribute" name="${at}.attribute" value="${value.attribute}" size="12" maxlength="64"${off}>
<label for="${id}-operator">Operator</label> <select id="${id}-operator" name="${at}.operator"${off}>${RULE_OPERATORS.map((op) => html`<option value="${op}"${op === value.operator ? html` selected` : ''}>${OPERATOR_NAMES[op]}</option>`)}${known ? '' : html`<option value="${value.operator}" selected>${value.operator || '(none)'}</option>`}</select>
<label for="${id}-values">Values</label> <input type="text" id="${id}-values" name="${at}.values" value="${value.values}" size="24" aria-describedby="values-hint"${off}>
${button(`remove-rule-${s}-${r}`, 'Remove rule', `Remove rule ${r + 1} of segment ${s + 1}`)}</li>`;
  };
  const arm = (s: number, a: number, value: EditorArm) => {
    const at = `segments.${s}.arms.${a}`;
    const id = `s${s}-a${a}`;
    return html`<li class="inline"><label for="${id}-variant">Variant</label> ${variantSelect(`${id}-variant`, `${at}.variant`, value.variantId)}
<label for="${id}-weight">Weight (%)</label> <input type="text" inputmode="decimal" id="${id}-weight" name="${at}.weight" value="${value.weight}" size="8" aria-describedby="weight-hint"${off}>
${button(`remove-arm-${s}-${a}`, 'Remove arm', `Remove arm ${a + 1} of segment ${s + 1}`)}</li>`;
  };
  const segment = (s: number, value: EditorSegment) => html`<fieldset data-testid="segment">
<legend>Segment ${s + 1}</legend>
<p><label for="s${s}-name">Name</label> <input type="text" id="s${s}-name" name="segments.${s}.name" value="${value.name}" size="24" maxlength="64"${off}></p>
<p class="hint">${value.rules.length === 0 ? 'No rule: this segment takes everyone it reaches.' : 'Every rule must hold.'}</p>
${value.rules.length === 0 ? '' : html`<ul class="stack">${value.rules.map((r, i) => rule(s, i, r))}</ul>`}
<p>${button(`add-rule-${s}`, 'Add rule', `Add rule to segment ${s + 1}`)}</p>
<p class="hint">Arms: one variant at 100%, or a split whose weights add up to 100%.</p>
<ul class="stack">${value.arms.map((a, i) => arm(s, i, a))}</ul>
<p class="inline">${button(`add-arm-${s}`, 'Add arm', `Add arm to segment ${s + 1}`)} ${button(`remove-segment-${s}`, 'Remove segment', `Remove segment ${s + 1}`, 'danger')}</p>
</fieldset>`;

  return html`<form method="post" action="${e.action}" class="stack">${csrfInput(e.csrf)}
<p>${button('save', 'Save draft', 'Save draft', '')}</p>
${e.gate.note}
<p class="hint" id="values-hint">Values are comma-separated: <code>DE, AT, CH</code>. <code>equals</code> and <code>starts with</code> take one value.</p>
<p class="hint" id="weight-hint">Weights in percent with up to 3 decimals (<code>12.5</code>, <code>0.125</code>).</p>
${e.segments.length === 0 ? html`<p class="hint">No segment: everyone gets the release. Add a segment to pick a variant for some users.</p>` : e.segments.map((s, i) => segment(i, s))}
<p>${button('add-segment', 'Add segment', 'Add segment')}</p>
</form>`;
}
