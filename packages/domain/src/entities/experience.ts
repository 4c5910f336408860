/**
 * Experiences (docs/experiences.md): on top of an environment's release, which stays the
 * fallback, an ordered list of segments picks a variant (or a split among variants) per user
 * from attributes the host page passes. Published as immutable, numbered revisions.
 */

/** Assignment resolution: a bucket is an integer in [0, ASSIGNMENT_SCALE), so a weight of 1 is 0.001%. */
export const ASSIGNMENT_SCALE = 100_000;

export const RULE_OPERATORS = ['equals', 'in', 'not_in', 'prefix'] as const;
export type RuleOperator = (typeof RULE_OPERATORS)[number];

/** One condition on a host attribute; `equals` and `prefix` take exactly one value. */
export interface SegmentRule {
  readonly attribute: string;
  readonly operator: RuleOperator;
  readonly values: readonly string[];
}

/** A share of a segment's users: `weight` in units of 1/ASSIGNMENT_SCALE. */
export interface ArmWeight {
  readonly variantId: string;
  readonly weight: number;
}

/**
 * Users whose attributes satisfy every rule (no rules: everyone) get one of `arms`, by their
 * bucket: the first arm owns [0, w1), the next [w1, w1 + w2), and so on. One arm of full weight
 * is "this variant".
 */
export interface Segment {
  readonly name: string;
  readonly rules: readonly SegmentRule[];
  readonly arms: readonly ArmWeight[];
}

/** What an experience says; no segments is "everyone gets the release". */
export interface ExperienceDefinition {
  readonly segments: readonly Segment[];
}

/** The one editable copy per component and environment. */
export interface ExperienceDraft {
  readonly componentId: string;
  readonly environmentId: string;
  readonly definition: ExperienceDefinition;
  readonly updatedBy: string;
  readonly updatedAt: Date;
}

/**
 * Whether a publish keeps the live revision's salt (users at changed boundaries move, and the
 * publish reports how many) or starts a new phase with a new salt (everyone is drawn again).
 */
export type SplitPhase = 'keep' | 'new';

/** An immutable published experience. The live one is the newest of its component and environment. */
export interface ExperienceRevision {
  readonly componentId: string;
  readonly environmentId: string;
  readonly environmentName: string;
  /** 1, 2, 3... per component and environment. */
  readonly number: number;
  readonly definition: ExperienceDefinition;
  readonly salt: string;
  /** The revision this one re-published, if it is a re-publish. */
  readonly republishedFrom: number | null;
  readonly publishedBy: string;
  readonly publishedAt: Date;
}

/** Limits on what one experience may hold (rules/experience-definition.ts). */
export const EXPERIENCE_LIMITS = {
  segments: 20,
  rulesPerSegment: 10,
  valuesPerRule: 100,
  armsPerSegment: 10,
  /** Characters of an attribute name, a value, and a segment name. */
  attributeLength: 64,
  valueLength: 128,
  segmentNameLength: 64,
  /** Attributes a host may pass on one request (the delivery API and the SDK refuse more). */
  attributesPerRequest: 20,
  /** Characters of an assignment key. */
  keyLength: 256,
} as const;
