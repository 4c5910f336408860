import { DEFAULT_GUARD_SETTINGS, DEFAULT_ROLLOUT_STAGES, invalidInput, MAX_ROLLOUT_STAGES, type GuardSettings, type RolloutStage } from '@cp/domain';
import { percentText, weightOf } from './experience-editor-form.js';

/*
 * The rollout start form as typed text (a refused start shows what was sent): the candidate, up to
 * MAX_ROLLOUT_STAGES stage rows (weight in percent, hold in minutes; an empty row is no stage) and
 * the guard's thresholds in the units people read (percentage points for the error rate rise).
 */

export type GuardField = keyof GuardSettings;

export interface StartForm {
  readonly candidate: string;
  readonly stages: readonly { readonly weight: string; readonly hold: string }[];
  readonly guard: Readonly<Record<GuardField, string>>;
}

export const GUARD_FIELDS: readonly GuardField[] = ['minSessionsPerArm', 'windowSessions', 'minErrorRateRise', 'minZ', 'regressedWindows', 'sampleRatioP'];

/** The error rate rise is entered in percentage points; the others as the domain holds them. */
const POINTS: ReadonlySet<GuardField> = new Set(['minErrorRateRise']);

/** The form as first shown: the default stages (1/5/25/50/100%, an hour each), empty rows up to the limit, the default thresholds. */
export function defaultStartForm(): StartForm {
  const rows = DEFAULT_ROLLOUT_STAGES.map((stage) => ({ weight: percentText(stage.weight), hold: String(stage.holdMinutes) }));
  while (rows.length < MAX_ROLLOUT_STAGES) rows.push({ weight: '', hold: '' });
  const guard = Object.fromEntries(
    GUARD_FIELDS.map((field) => [field, String(POINTS.has(field) ? Number((DEFAULT_GUARD_SETTINGS[field] * 100).toFixed(6)) : DEFAULT_GUARD_SETTINGS[field])]),
  ) as Record<GuardField, string>;
  return { candidate: '', stages: rows, guard };
}

const str = (body: Readonly<Record<string, unknown>>, name: string): string => {
  const value = body[name];
  return typeof value === 'string' ? value : '';
};

/** The fields as sent. */
export function readStartForm(body: Readonly<Record<string, unknown>>): StartForm {
  const stages = Array.from({ length: MAX_ROLLOUT_STAGES }, (_, i) => ({ weight: str(body, `stages.${i}.weight`), hold: str(body, `stages.${i}.hold`) }));
  const guard = Object.fromEntries(GUARD_FIELDS.map((field) => [field, str(body, `guard.${field}`)])) as Record<GuardField, string>;
  return { candidate: str(body, 'candidate'), stages, guard };
}

const NUMBER = /^\s*\d+(?:\.\d+)?(?:e-?\d+)?\s*$/i;

/**
 * The candidate, stages and thresholds the domain checks (its messages name a stage or a setting); text
 * that is no number, and no candidate chosen, are refused here, named alike; an empty threshold is its default.
 */
export function startPlanOf(form: StartForm): { candidateVariantId: string; stages: RolloutStage[]; guard: GuardSettings } {
  if (form.candidate === '') throw invalidInput('candidateVariantId', 'choose the candidate variant from the list.');
  const stages: RolloutStage[] = [];
  form.stages.forEach((row, i) => {
    if (row.weight.trim() === '' && row.hold.trim() === '') return;
    const at = `stages[${stages.length}]`;
    if (!NUMBER.test(row.hold)) throw invalidInput(`${at}.holdMinutes`, `"${row.hold.slice(0, 20)}" is not a number of minutes (row ${i + 1}).`);
    stages.push({ weight: weightOf(row.weight, `${at}.weight`), holdMinutes: Number(row.hold) });
  });
  const guard = Object.fromEntries(
    GUARD_FIELDS.map((field) => {
      const value = form.guard[field];
      if (value.trim() === '') return [field, DEFAULT_GUARD_SETTINGS[field]];
      if (!NUMBER.test(value)) throw invalidInput(`guard.${field}`, `"${value.slice(0, 20)}" is not a number.`);
      return [field, POINTS.has(field) ? Number(value) / 100 : Number(value)];
    }),
  ) as unknown as GuardSettings;
  return { candidateVariantId: form.candidate, stages, guard };
}
