import type { AssignmentSegment } from '../entities/assignment.js';
import { ASSIGNMENT_SCALE, type SegmentRule } from '../entities/experience.js';

/*
 * The assignment every implementation shares (docs/experiences.md "Assignment"): the host SDK
 * has its own copy (packages/host/src/experience/), and both pass the committed cases in
 * packages/domain/test/assignment-cases.json.
 */

// Read once: a global looked up in the loop is many times slower in a vm context (jest's tests).
const imul = Math.imul;

/** MurmurHash3 x86 32-bit of `bytes`, seed 0, as an unsigned integer. */
export function murmur3(bytes: Uint8Array): number {
  const c1 = 0xcc9e2d51;
  const c2 = 0x1b873593;
  let h = 0;
  const blocks = bytes.length & ~3;
  for (let i = 0; i < blocks; i += 4) {
    let k = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    k = imul(k, c1);
    k = (k << 15) | (k >>> 17);
    h ^= imul(k, c2);
    h = (h << 13) | (h >>> 19);
    h = (imul(h, 5) + 0xe6546b64) | 0;
  }
  let k = 0;
  switch (bytes.length & 3) {
    case 3:
      k ^= bytes[blocks + 2]! << 16;
    // falls through
    case 2:
      k ^= bytes[blocks + 1]! << 8;
    // falls through
    case 1:
      k ^= bytes[blocks]!;
      k = imul(k, c1);
      k = (k << 15) | (k >>> 17);
      h ^= imul(k, c2);
  }
  h ^= bytes.length;
  h ^= h >>> 16;
  h = imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const utf8 = new TextEncoder();

/** The user's bucket in [0, ASSIGNMENT_SCALE): murmur3 of `salt:key` in UTF-8, scaled (not reduced modulo, which would favour low buckets). */
export const bucketOf = (salt: string, key: string): number =>
  Math.floor((murmur3(utf8.encode(`${salt}:${key}`)) * ASSIGNMENT_SCALE) / 2 ** 32);

/** Whether `attributes` satisfy the rule. A missing attribute satisfies no rule, `not_in` included. */
function ruleHolds(rule: SegmentRule, attributes: Readonly<Record<string, string>>): boolean {
  const value = Object.prototype.hasOwnProperty.call(attributes, rule.attribute) ? attributes[rule.attribute] : undefined;
  if (value === undefined) return false;
  switch (rule.operator) {
    case 'equals':
      return value === rule.values[0];
    case 'in':
      return rule.values.includes(value);
    case 'not_in':
      return !rule.values.includes(value);
    case 'prefix':
      return value.startsWith(rule.values[0] ?? '');
  }
}

export interface Assigned {
  readonly segment: number;
  /** The arm's name (`v7`, or RELEASE_ARM). */
  readonly arm: string;
  /** The arm's variant; null: the release. */
  readonly variantId: string | null;
}

/**
 * The first segment whose rules all hold decides. Its arm is the one owning the user's bucket;
 * a segment of one arm needs no key, a split does: without a key the user gets the fallback
 * (null), never a random draw, which would flicker between requests. No segment: the fallback.
 */
export function assign(
  segments: readonly AssignmentSegment[],
  key: string | null,
  attributes: Readonly<Record<string, string>>,
): Assigned | null {
  for (const [index, segment] of segments.entries()) {
    if (!segment.rules.every((rule) => ruleHolds(rule, attributes))) continue;
    const only = segment.arms.length === 1 ? segment.arms[0] : undefined;
    if (only) return { segment: index, arm: only.arm, variantId: only.variantId };
    if (key === null || key === '') return null;
    const bucket = bucketOf(segment.salt, key);
    const arm = segment.arms.find((candidate) => bucket < candidate.upTo);
    return arm ? { segment: index, arm: arm.arm, variantId: arm.variantId } : null;
  }
  return null;
}
