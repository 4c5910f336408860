import {
  EXPERIENCE_LIMITS as L,
  RULE_OPERATORS,
  type ExperienceDefinition,
  type ExperienceRevision,
  percentOf,
} from '@cp/domain';
import { z } from 'zod';
import { isoTime } from './define.js';
import { uuid } from './params.js';
import { percentNumber, percentParam, weightOf } from './percent.js';

/*
 * An experience definition as the tools take and answer it: weights as percentages (percent.ts).
 * The schema holds the types and sizes; the domain (rules/experience-definition.ts) checks the
 * rest (names, operators' value counts, variants of the component, weights adding up to 100%)
 * and names the part that is wrong.
 */
const ruleInput = z.strictObject({
  attribute: z
    .string({ error: 'a rule\'s attribute must be a string such as "country".' })
    .describe('Attribute the host page passes, for example "country", "device", "plan".'),
  operator: z
    .enum(RULE_OPERATORS, {
      error: `a rule's operator must be one of ${RULE_OPERATORS.join(', ')}.`,
    })
    .describe(
      'equals (one value), in (one of the values), not_in (present and none of them), prefix (starts with the one value).',
    ),
  values: z
    .array(z.string({ error: 'rule values must be strings.' }), {
      error: "a rule's values must be an array of strings.",
    })
    .max(L.valuesPerRule, { error: `a rule holds at most ${L.valuesPerRule} values.` }),
});

const armInput = z.strictObject({
  variantId: uuid('variantId').describe('A version of the component, from list_variants.'),
  percent: percentParam('percent').describe(
    "This variant's share of the segment's users, in percent (0.001 to 100, at most 3 decimals). A segment's arms add up to 100.",
  ),
});

export const segmentsInput = z
  .array(
    z.strictObject({
      name: z
        .string({ error: 'a segment name must be a string.' })
        .describe(`Unique within the experience, at most ${L.segmentNameLength} characters.`),
      rules: z
        .array(ruleInput, { error: 'rules must be an array of { attribute, operator, values }.' })
        .max(L.rulesPerSegment, { error: `a segment holds at most ${L.rulesPerSegment} rules.` })
        .optional()
        .describe('All must hold; none (or omitted): everyone.'),
      arms: z
        .array(armInput, { error: 'arms must be an array of { variantId, percent }.' })
        .min(1, { error: 'a segment needs at least one arm.' })
        .max(L.armsPerSegment, { error: `a segment holds at most ${L.armsPerSegment} arms.` })
        .describe('One variant at 100, or a split whose percents add up to 100.'),
    }),
    { error: 'segments must be an array of { name, rules, arms }.' },
  )
  .max(L.segments, { error: `an experience holds at most ${L.segments} segments.` })
  .describe(
    'Tried in order; the first whose rules all hold decides. [] turns the experience off once published.',
  );

export const toDefinition = (segments: z.output<typeof segmentsInput>): ExperienceDefinition => ({
  segments: segments.map((segment) => ({
    name: segment.name,
    rules: segment.rules ?? [],
    arms: segment.arms.map((arm) => ({ variantId: arm.variantId, weight: weightOf(arm.percent) })),
  })),
});

export const segmentsShape = z.array(
  z.object({
    name: z.string(),
    rules: z.array(
      z.object({
        attribute: z.string(),
        operator: z.enum(RULE_OPERATORS),
        values: z.array(z.string()),
      }),
    ),
    arms: z.array(z.object({ variantId: z.string(), percent: z.number() })),
  }),
);

export const toSegments = (definition: ExperienceDefinition): z.infer<typeof segmentsShape> =>
  definition.segments.map((segment) => ({
    name: segment.name,
    rules: segment.rules.map((rule) => ({
      attribute: rule.attribute,
      operator: rule.operator,
      values: [...rule.values],
    })),
    arms: segment.arms.map((arm) => ({
      variantId: arm.variantId,
      percent: percentNumber(arm.weight),
    })),
  }));

/** Values a message lists per rule; the structured answer has them all. */
const VALUES_SHOWN = 5;
const valuesText = (values: readonly string[]): string =>
  values.length <= VALUES_SHOWN
    ? values.join(', ')
    : `${values.slice(0, VALUES_SHOWN).join(', ')}, +${values.length - VALUES_SHOWN} more`;

/** One line per segment: `"EU pro": country in [DE, FR] -> 50% <id>, 50% <id>`. */
export function describeSegments(definition: ExperienceDefinition): string {
  if (definition.segments.length === 0) return 'no segments (everyone gets the release)';
  return definition.segments
    .map((segment) => {
      const rules =
        segment.rules.length === 0
          ? 'everyone'
          : segment.rules
              .map((rule) => `${rule.attribute} ${rule.operator} [${valuesText(rule.values)}]`)
              .join(' and ');
      const arms = segment.arms
        .map((arm) => `${percentOf(arm.weight)} ${arm.variantId}`)
        .join(', ');
      return `"${segment.name}": ${rules} -> ${arms}`;
    })
    .join('; ');
}

export const revisionSummaryShape = z.object({
  revision: z.int(),
  segments: z.int().describe('How many segments; 0: the experience was off.'),
  republishedFrom: z.int().nullable(),
  publishedBy: z.string().describe('User id.'),
  publishedAt: z.string(),
});

export const toRevisionSummary = (
  revision: ExperienceRevision,
): z.infer<typeof revisionSummaryShape> => ({
  revision: revision.number,
  segments: revision.definition.segments.length,
  republishedFrom: revision.republishedFrom,
  publishedBy: revision.publishedBy,
  publishedAt: isoTime(revision.publishedAt),
});
