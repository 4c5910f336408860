import type { SegmentRule } from './experience.js';

/**
 * What decides which variant a user of a component environment gets, while an experience or a
 * rollout is live there (docs/experiences.md "Assignment"). The delivery API sends it as a
 * descriptor next to the fallback, without variant bodies; the SDK and the server both pick
 * with rules/assignment.ts (and the SDK's own copy), tested against one file of cases.
 */
export interface LiveAssignment {
  readonly kind: 'experience' | 'rollout';
  /** Unique and increasing across every change of every component environment: `rev` of arm requests. */
  readonly revision: number;
  readonly segments: readonly AssignmentSegment[];
}

export interface AssignmentSegment {
  /** All must hold; none: everyone. */
  readonly rules: readonly SegmentRule[];
  readonly salt: string;
  /** In bucket order: an arm owns the buckets from the previous arm's `upTo` to its own. The last ends at ASSIGNMENT_SCALE. */
  readonly arms: readonly AssignmentArm[];
}

export interface AssignmentArm {
  /** RELEASE_ARM, or the variant's name (`v7`): what `/consume?arm=` takes. */
  readonly arm: string;
  /** null: the environment's release (the fallback). */
  readonly variantId: string | null;
  /** Exclusive upper bound of the arm's buckets. */
  readonly upTo: number;
}

/** The name of the arm that serves the release; other arms are named for their variant (`v7`). */
export const RELEASE_ARM = 'release';
