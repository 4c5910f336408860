import { ASSIGNMENT_SCALE, EXPERIENCE_LIMITS, invalidInput, type ExperienceDefinition, type RuleOperator } from '@cp/domain';

/*
 * The experience editor's form: segments, their rules and arms as flat fields
 * (`segments.0.rules.1.values`), kept as typed text so that a refused save shows
 * exactly what the person typed. Add and remove are submit buttons of the same
 * form (`op`): the server answers the form with the change, nothing is saved.
 */

export interface EditorRule {
  readonly attribute: string;
  readonly operator: string;
  /** Comma-separated. */
  readonly values: string;
}

export interface EditorArm {
  readonly variantId: string;
  /** A percentage with up to 3 decimals ("12.5"). */
  readonly weight: string;
}

export interface EditorSegment {
  readonly name: string;
  readonly rules: readonly EditorRule[];
  readonly arms: readonly EditorArm[];
}

/** What the add and remove buttons send as `op`; `save` (or none) saves the draft. */
export type EditorOp =
  | { readonly kind: 'save' }
  | { readonly kind: 'add-segment' }
  | { readonly kind: 'remove-segment'; readonly segment: number }
  | { readonly kind: 'add-rule' | 'add-arm'; readonly segment: number }
  | { readonly kind: 'remove-rule' | 'remove-arm'; readonly segment: number; readonly item: number };

const OP = /^(add-segment|save)$|^(remove-segment|add-rule|add-arm)-(\d{1,2})$|^(remove-rule|remove-arm)-(\d{1,2})-(\d{1,3})$/;

/** `op` as sent by a button of the form; anything else is refused, naming the field. */
export function editorOp(value: string): EditorOp {
  if (value === '') return { kind: 'save' };
  const m = OP.exec(value);
  if (m === null) throw invalidInput('op', `"${value.slice(0, 30)}" is not one of the editor's buttons.`);
  if (m[1] !== undefined) return { kind: m[1] as 'save' | 'add-segment' };
  if (m[2] !== undefined) {
    const segment = Number(m[3]);
    return m[2] === 'remove-segment' ? { kind: 'remove-segment', segment } : { kind: m[2] as 'add-rule' | 'add-arm', segment };
  }
  return { kind: m[4] as 'remove-rule' | 'remove-arm', segment: Number(m[5]), item: Number(m[6]) };
}

const str = (body: Readonly<Record<string, unknown>>, name: string): string => {
  const value = body[name];
  return typeof value === 'string' ? value : '';
};

/** The indexes present under `prefix` (`segments.` → 0, 1, 3), in order: a removed row leaves a gap the form closes. */
function indexes(body: Readonly<Record<string, unknown>>, prefix: string, limit: number): number[] {
  const found = new Set<number>();
  const pattern = new RegExp(`^${prefix.replace(/\./g, '\\.')}(\\d{1,3})\\.`);
  for (const key of Object.keys(body)) {
    const m = pattern.exec(key);
    if (m !== null) found.add(Number(m[1]));
  }
  return [...found].sort((a, b) => a - b).slice(0, limit + 1);
}

/** The segments as the form sent them (at most one more of each than the limits, so the domain names the excess). */
export function readEditor(body: unknown): EditorSegment[] {
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Readonly<Record<string, unknown>>;
  return indexes(fields, 'segments.', EXPERIENCE_LIMITS.segments).map((s) => {
    const at = `segments.${s}.`;
    return {
      name: str(fields, `${at}name`),
      rules: indexes(fields, `${at}rules.`, EXPERIENCE_LIMITS.rulesPerSegment).map((r) => ({
        attribute: str(fields, `${at}rules.${r}.attribute`),
        operator: str(fields, `${at}rules.${r}.operator`),
        values: str(fields, `${at}rules.${r}.values`),
      })),
      arms: indexes(fields, `${at}arms.`, EXPERIENCE_LIMITS.armsPerSegment).map((a) => ({
        variantId: str(fields, `${at}arms.${a}.variant`),
        weight: str(fields, `${at}arms.${a}.weight`),
      })),
    };
  });
}

const without = <T>(items: readonly T[], index: number): T[] => items.filter((_, i) => i !== index);
const change = (segments: readonly EditorSegment[], index: number, edit: (s: EditorSegment) => EditorSegment): EditorSegment[] =>
  segments.map((segment, i) => (i === index ? edit(segment) : segment));

/** The editor after an add or remove button; a new segment takes everyone to one variant until rules are added. */
export function applyOp(segments: readonly EditorSegment[], op: Exclude<EditorOp, { kind: 'save' }>): EditorSegment[] {
  switch (op.kind) {
    case 'add-segment':
      return [...segments, { name: `segment ${segments.length + 1}`, rules: [], arms: [{ variantId: '', weight: '100' }] }];
    case 'remove-segment':
      return without(segments, op.segment);
    case 'add-rule':
      return change(segments, op.segment, (s) => ({ ...s, rules: [...s.rules, { attribute: '', operator: 'equals', values: '' }] }));
    case 'add-arm':
      return change(segments, op.segment, (s) => ({ ...s, arms: [...s.arms, { variantId: '', weight: '0' }] }));
    case 'remove-rule':
      return change(segments, op.segment, (s) => ({ ...s, rules: without(s.rules, op.item) }));
    case 'remove-arm':
      return change(segments, op.segment, (s) => ({ ...s, arms: without(s.arms, op.item) }));
  }
}

const PERCENT = /^\s*(\d{1,3})(?:\.(\d{1,3}))?\s*%?\s*$/;

/** "12.5" as 12 500 thousandths of a percent; more than 3 decimals or not a number is refused, naming `field`. */
export function weightOf(text: string, field: string): number {
  const m = PERCENT.exec(text);
  if (m === null) throw invalidInput(field, `"${text.slice(0, 20)}" is not a percentage with at most 3 decimals (12.5).`);
  return Number(m[1]) * (ASSIGNMENT_SCALE / 100) + Number((m[2] ?? '').padEnd(3, '0'));
}

/** The definition the domain checks; operators and values pass as typed, so its messages name what is wrong. */
export function definitionOf(segments: readonly EditorSegment[]): ExperienceDefinition {
  return {
    segments: segments.map((segment, s) => ({
      name: segment.name.trim(),
      rules: segment.rules.map((rule) => ({
        attribute: rule.attribute.trim(),
        operator: rule.operator as RuleOperator,
        values: rule.values.split(',').map((v) => v.trim()).filter((v) => v !== ''),
      })),
      arms: segment.arms.map((arm, a) => ({ variantId: arm.variantId, weight: weightOf(arm.weight, `segments[${s}].arms[${a}].weight`) })),
    })),
  };
}

/** A weight as the form shows it: 12500 as "12.5". */
export const percentText = (weight: number): string => String(Number(((weight * 100) / ASSIGNMENT_SCALE).toFixed(3)));

/** A stored definition as the form's fields. */
export function editorOf(definition: ExperienceDefinition): EditorSegment[] {
  return definition.segments.map((segment) => ({
    name: segment.name,
    rules: segment.rules.map((rule) => ({ attribute: rule.attribute, operator: rule.operator, values: rule.values.join(', ') })),
    arms: segment.arms.map((arm) => ({ variantId: arm.variantId, weight: percentText(arm.weight) })),
  }));
}
