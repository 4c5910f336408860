import { readFileSync } from 'node:fs';
import murmurhash from 'murmurhash';
import type { AssignmentSegment } from '../src/entities/assignment.js';
import { ASSIGNMENT_SCALE, RULE_OPERATORS, type SegmentRule } from '../src/entities/experience.js';
import { assign, bucketOf } from '../src/rules/assignment.js';
import { rolloutAssignment } from '../src/rules/rollout-guard.js';
import { seededRandom } from '../src/testing/seeded-random.js';

/** The committed cases (scripts/assignment-cases.ts writes them; the host SDK runs the same file in Chromium). */
interface Cases {
  hash: { salt: string; key: string; bucket: number }[];
  assign: {
    name: string;
    segments: { rules: SegmentRule[]; salt: string; arms: { arm: string; upTo: number }[] }[];
    key: string | null;
    attributes: Record<string, string>;
    arm: string | null;
  }[];
}
const cases = JSON.parse(readFileSync(new URL('./assignment-cases.json', import.meta.url), 'utf8')) as Cases;

/** The wire form as the domain's segments: the arm's variant does not change which arm a user gets. */
const asSegments = (segments: Cases['assign'][number]['segments']): AssignmentSegment[] =>
  segments.map((segment) => ({ ...segment, arms: segment.arms.map((arm) => ({ ...arm, variantId: arm.arm })) }));

/** Ids shaped as hosts pass them (uuids) and as newSalt draws salts (16 hex digits). */
const hex8 = (random: () => number) => Math.floor(random() * 2 ** 32).toString(16).padStart(8, '0');
const uuids = (count: number, seed: number) => {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const [a, b, c, d] = [hex8(random), hex8(random), hex8(random), hex8(random)];
    return `${a}-${b.slice(0, 4)}-4${b.slice(5)}-a${c.slice(1, 4)}-${c.slice(4)}${d}`;
  });
};
const salts = (count: number, seed: number) => {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => hex8(random) + hex8(random));
};

describe('the assignment cases file', () => {
  it('holds 1000+ buckets, non-ASCII keys among them, and every bucket is what bucketOf computes', () => {
    expect(cases.hash.length).toBeGreaterThanOrEqual(1000);
    expect(new Set(cases.hash.map((c) => c.salt)).size).toBeGreaterThanOrEqual(10);
    expect(cases.hash.some((c) => [...c.key].some((char) => char.codePointAt(0)! > 0x7f))).toBe(true);
    expect(cases.hash.filter((c) => bucketOf(c.salt, c.key) !== c.bucket)).toEqual([]);
  });

  it('agrees with an independent MurmurHash3 (the murmurhash package hashes UTF-8)', () => {
    const independent = (salt: string, key: string) => Math.floor((murmurhash.v3(`${salt}:${key}`, 0) * ASSIGNMENT_SCALE) / 2 ** 32);
    expect(cases.hash.filter((c) => independent(c.salt, c.key) !== c.bucket)).toEqual([]);
  });

  it.each(cases.assign.map((c) => [c.name, c] as const))('%s', (_, c) => {
    expect(assign(asSegments(c.segments), c.key, c.attributes)?.arm ?? null).toBe(c.arm);
  });

  it('covers each operator both holding and failing', () => {
    const single = cases.assign.filter((c) => c.segments.length === 1 && c.segments[0]!.rules.length === 1);
    for (const operator of RULE_OPERATORS) {
      const outcomes = single.filter((c) => c.segments[0]!.rules[0]!.operator === operator).map((c) => c.arm !== null);
      expect([operator, outcomes.includes(true), outcomes.includes(false)]).toEqual([operator, true, true]);
    }
  });
});

describe('buckets', () => {
  it('split 10,000 users 10/90 within a percentage point, for each of 20 salts', () => {
    // A percentage point is 3.3 standard deviations of a 10% share of 10,000 users.
    const users = uuids(10_000, 1);
    const shares = salts(20, 2).map((salt) => users.filter((key) => bucketOf(salt, key) < 10_000).length / users.length);
    expect(shares.filter((share) => Math.abs(share - 0.1) > 0.01)).toEqual([]);
  });

  it('keep every canary user as a rollout grows from 5% to 25%, 50% and 100%', () => {
    const users = uuids(5_000, 3);
    const canary = (weight: number) =>
      new Set(users.filter((key) => assign(rolloutAssignment({ candidateVariantId: 'c', weight, salt: 'growth' }, 1, 'v7').segments, key, {})?.arm === 'v7'));
    const stages = [5_000, 25_000, 50_000, 100_000].map(canary);
    stages.slice(1).forEach((stage, i) => expect([...stages[i]!].filter((key) => !stage.has(key))).toEqual([]));
    expect(stages.map((s) => s.size)).toEqual([...stages.map((s) => s.size)].sort((a, b) => a - b));
    expect(stages[3]!.size).toBe(users.length);
  });
});
