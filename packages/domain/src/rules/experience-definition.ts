import type { AssignmentSegment, LiveAssignment } from '../entities/assignment.js';
import {
  ASSIGNMENT_SCALE,
  EXPERIENCE_LIMITS as L,
  RULE_OPERATORS,
  type ExperienceDefinition,
  type ExperienceRevision,
  type Segment,
} from '../entities/experience.js';
import { invalidInput } from '../errors/factories.js';

/** Weights as people read them: 12.5% for 12 500. */
export const percentOf = (weight: number): string => `${Number(((weight * 100) / ASSIGNMENT_SCALE).toFixed(3))}%`;

/** An attribute name: a letter, then letters, digits, `_`, `.` or `-` (the delivery API checks hosts' names with it too). */
export const ATTRIBUTE_NAME = /^[A-Za-z][A-Za-z0-9_.-]*$/;

function checkText(field: string, value: unknown, max: number): void {
  if (typeof value !== 'string' || value.length === 0) throw invalidInput(field, 'must be a non-empty string.');
  if (value.length > max) throw invalidInput(field, `is ${value.length} characters long; the limit is ${max}.`);
}

function checkSegment(segment: Segment, at: string, variantIds: ReadonlySet<string>): void {
  checkText(`${at}.name`, segment.name, L.segmentNameLength);
  if (segment.rules.length > L.rulesPerSegment) {
    throw invalidInput(`${at}.rules`, `${segment.rules.length} rules; a segment holds at most ${L.rulesPerSegment}.`);
  }
  segment.rules.forEach((rule, r) => {
    const ruleAt = `${at}.rules[${r}]`;
    checkText(`${ruleAt}.attribute`, rule.attribute, L.attributeLength);
    if (!ATTRIBUTE_NAME.test(rule.attribute)) {
      throw invalidInput(`${ruleAt}.attribute`, `"${rule.attribute}" is not an attribute name (a letter, then letters, digits, "_", "." or "-").`);
    }
    if (!RULE_OPERATORS.includes(rule.operator)) {
      throw invalidInput(`${ruleAt}.operator`, `must be one of ${RULE_OPERATORS.join(', ')}, not "${String(rule.operator)}".`);
    }
    const single = rule.operator === 'equals' || rule.operator === 'prefix';
    if (single ? rule.values.length !== 1 : rule.values.length === 0) {
      throw invalidInput(`${ruleAt}.values`, single ? `${rule.operator} takes exactly one value.` : `${rule.operator} takes at least one value.`);
    }
    if (rule.values.length > L.valuesPerRule) {
      throw invalidInput(`${ruleAt}.values`, `${rule.values.length} values; a rule holds at most ${L.valuesPerRule}.`);
    }
    rule.values.forEach((value, v) => checkText(`${ruleAt}.values[${v}]`, value, L.valueLength));
  });
  if (segment.arms.length === 0 || segment.arms.length > L.armsPerSegment) {
    throw invalidInput(`${at}.arms`, `a segment has from 1 to ${L.armsPerSegment} arms (a variant, or a split among variants), not ${segment.arms.length}.`);
  }
  const seen = new Set<string>();
  let total = 0;
  segment.arms.forEach((arm, a) => {
    const armAt = `${at}.arms[${a}]`;
    if (!variantIds.has(arm.variantId)) {
      throw invalidInput(`${armAt}.variantId`, `"${arm.variantId}" is not a variant of this component. list_variants shows its variants.`);
    }
    if (seen.has(arm.variantId)) throw invalidInput(`${armAt}.variantId`, 'names a variant that an earlier arm of the segment already has.');
    seen.add(arm.variantId);
    if (!Number.isInteger(arm.weight) || arm.weight <= 0 || arm.weight > ASSIGNMENT_SCALE) {
      throw invalidInput(`${armAt}.weight`, `must be a whole number of thousandths of a percent from 1 to ${ASSIGNMENT_SCALE} (100%), not ${String(arm.weight)}.`);
    }
    total += arm.weight;
  });
  if (total !== ASSIGNMENT_SCALE) throw invalidInput(`${at}.arms`, `weights add up to ${percentOf(total)}, not 100%.`);
}

/**
 * INVALID_INPUT naming the first part that is wrong (`segments[2].arms[0].variantId: ...`):
 * too many segments or rules, an attribute or value too long, an unknown operator, a variant
 * that is not the component's, or weights that do not add up to 100%.
 */
export function checkExperienceDefinition(definition: ExperienceDefinition, variantIds: ReadonlySet<string>): void {
  if (definition.segments.length > L.segments) {
    throw invalidInput('segments', `${definition.segments.length} segments; an experience holds at most ${L.segments}.`);
  }
  const names = new Set<string>();
  definition.segments.forEach((segment, s) => {
    checkSegment(segment, `segments[${s}]`, variantIds);
    if (names.has(segment.name)) throw invalidInput(`segments[${s}].name`, `"${segment.name}" names an earlier segment too; names are unique.`);
    names.add(segment.name);
  });
}

/** Names a variant id as an arm (`v7`: rules/arms.ts armName). */
export type ArmNamer = (variantId: string) => string;

/** A segment's arms as buckets: each arm ends where the next begins. */
function armsOf(segment: Pick<Segment, 'arms'>, nameOf: ArmNamer = (id) => id): AssignmentSegment['arms'] {
  let upTo = 0;
  return segment.arms.map((arm) => ({ arm: nameOf(arm.variantId), variantId: arm.variantId, upTo: (upTo += arm.weight) }));
}

/** The live assignment of a published experience revision; null when it has no segment. */
export function experienceAssignment(
  revision: Pick<ExperienceRevision, 'definition' | 'salt'>,
  assignmentRevision: number,
  nameOf: ArmNamer,
): LiveAssignment | null {
  if (revision.definition.segments.length === 0) return null;
  return {
    kind: 'experience',
    revision: assignmentRevision,
    segments: revision.definition.segments.map((segment) => ({ rules: segment.rules, salt: revision.salt, arms: armsOf(segment, nameOf) })),
  };
}

/** Per segment kept by name: the share of its users whose variant changes when the salt is kept. */
export interface MovedUsers {
  readonly segment: string;
  /** In units of 1/ASSIGNMENT_SCALE of the segment's users. */
  readonly moved: number;
}

/**
 * With the salt kept, a user's bucket stays; only the buckets whose arm changes variant move.
 * Segments new or gone are not counted (their users move by the rules, not by the split).
 */
export function movedUsers(before: ExperienceDefinition, after: ExperienceDefinition): MovedUsers[] {
  const old = new Map(before.segments.map((segment) => [segment.name, armsOf(segment)]));
  const result: MovedUsers[] = [];
  for (const segment of after.segments) {
    const previous = old.get(segment.name);
    if (!previous) continue;
    result.push({ segment: segment.name, moved: differingBuckets(previous, armsOf(segment)) });
  }
  return result;
}

/** How many buckets map to different variants under two arm layouts. */
function differingBuckets(a: AssignmentSegment['arms'], b: AssignmentSegment['arms']): number {
  const edges = [...new Set([0, ...a.map((arm) => arm.upTo), ...b.map((arm) => arm.upTo)])].sort((x, y) => x - y);
  let moved = 0;
  for (let i = 0; i + 1 < edges.length; i++) {
    const start = edges[i]!;
    const variantIn = (arms: AssignmentSegment['arms']) => arms.find((arm) => start < arm.upTo)?.variantId;
    if (variantIn(a) !== variantIn(b)) moved += edges[i + 1]! - start;
  }
  return moved;
}
