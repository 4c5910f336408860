import { EXPERIENCE_LIMITS, type ExperienceDefinition, type Segment } from '../src/entities/experience.js';
import { ErrorCode } from '../src/errors/domain-error.js';
import { checkExperienceDefinition, movedUsers } from '../src/rules/experience-definition.js';
import { aRule, aSegment, aSplit } from './experience-builders.js';

const [A, B, C] = ['00000000-0000-4000-a000-00000000000a', '00000000-0000-4000-a000-00000000000b', '00000000-0000-4000-a000-00000000000c'];
const known = new Set([A, B, C]);
const refusal = (definition: ExperienceDefinition) => {
  try {
    checkExperienceDefinition(definition, known);
  } catch (error) {
    return error;
  }
  return null;
};
const withSegment = (overrides: Partial<Segment>): ExperienceDefinition => ({ segments: [{ ...aSplit(A, B).segments[0]!, ...overrides }] });
const times = <T>(count: number, make: (i: number) => T): T[] => Array.from({ length: count }, (_, i) => make(i));

describe('experience definitions', () => {
  it('accept the limits exactly', () => {
    expect(refusal({ segments: [aSegment({ arms: [{ variantId: A, weight: 99_999 }, { variantId: B, weight: 1 }] })] })).toBeNull();
    const rules = times(EXPERIENCE_LIMITS.rulesPerSegment, (i) => aRule(`a${'x'.repeat(62)}${i}`, 'in', ...times(100, (v) => `${v}`.padEnd(128, 'v'))));
    const segments = times(EXPERIENCE_LIMITS.segments, (i) => aSegment({ name: `s${i}`.padEnd(64, '.'), rules, arms: [{ variantId: C, weight: 100_000 }] }));
    expect(refusal({ segments })).toBeNull();
    expect(refusal({ segments: [] })).toBeNull();
  });

  it.each<[string, ExperienceDefinition, string, RegExp]>([
    ['too many segments', { segments: times(21, (i) => aSegment({ name: `s${i}`, arms: [{ variantId: A, weight: 100_000 }] })) }, 'segments', /21 segments; an experience holds at most 20/],
    ['duplicate segment names', { segments: [aSegment({ arms: [{ variantId: A, weight: 100_000 }] }), aSegment({ arms: [{ variantId: B, weight: 100_000 }] })] }, 'segments[1].name', /"everyone" names an earlier segment/],
    ['an empty segment name', withSegment({ name: '' }), 'segments[0].name', /non-empty/],
    ['too many rules', withSegment({ rules: times(11, () => aRule('plan', 'equals', 'pro')) }), 'segments[0].rules', /11 rules; a segment holds at most 10/],
    ['an attribute too long', withSegment({ rules: [aRule('a'.repeat(65), 'equals', 'x')] }), 'segments[0].rules[0].attribute', /65 characters long; the limit is 64/],
    ['an attribute that is not a name', withSegment({ rules: [aRule('1st', 'equals', 'x')] }), 'segments[0].rules[0].attribute', /not an attribute name/],
    ['a bad operator', withSegment({ rules: [{ attribute: 'plan', operator: 'like' as 'in', values: ['x'] }] }), 'segments[0].rules[0].operator', /one of equals, in, not_in, prefix, not "like"/],
    ['equals with two values', withSegment({ rules: [aRule('plan', 'equals', 'a', 'b')] }), 'segments[0].rules[0].values', /exactly one value/],
    ['in with no value', withSegment({ rules: [aRule('plan', 'in')] }), 'segments[0].rules[0].values', /at least one value/],
    ['too many values', withSegment({ rules: [aRule('plan', 'not_in', ...times(101, String))] }), 'segments[0].rules[0].values', /101 values; a rule holds at most 100/],
    ['a value too long', withSegment({ rules: [aRule('plan', 'prefix', 'v'.repeat(129))] }), 'segments[0].rules[0].values[0]', /129 characters long; the limit is 128/],
    ['no arm', withSegment({ arms: [] }), 'segments[0].arms', /from 1 to 10 arms/],
    ['too many arms', withSegment({ arms: times(11, () => ({ variantId: A, weight: 1 })) }), 'segments[0].arms', /not 11/],
    ['an unknown variant', withSegment({ arms: [{ variantId: 'v9', weight: 100_000 }] }), 'segments[0].arms[0].variantId', /"v9" is not a variant of this component/],
    ['a variant twice', withSegment({ arms: [{ variantId: A, weight: 50_000 }, { variantId: A, weight: 50_000 }] }), 'segments[0].arms[1].variantId', /an earlier arm of the segment already has/],
    ['a fractional weight', withSegment({ arms: [{ variantId: A, weight: 50_000.5 }, { variantId: B, weight: 49_999.5 }] }), 'segments[0].arms[0].weight', /whole number of thousandths of a percent/],
    ['a zero weight', withSegment({ arms: [{ variantId: A, weight: 0 }, { variantId: B, weight: 100_000 }] }), 'segments[0].arms[0].weight', /not 0/],
    ['weights under 100%', withSegment({ arms: [{ variantId: A, weight: 50_000 }, { variantId: B, weight: 49_999 }] }), 'segments[0].arms', /weights add up to 99.999%, not 100%/],
    ['weights over 100%', withSegment({ arms: [{ variantId: A, weight: 62_500 }, { variantId: B, weight: 50_000 }] }), 'segments[0].arms', /weights add up to 112.5%, not 100%/],
  ])('refuse %s, naming it', (_, definition, field, message) => {
    const error = refusal(definition);
    expect(error).toMatchObject({ code: ErrorCode.InvalidInput, details: { field } });
    expect((error as Error).message).toMatch(new RegExp(`^${field.replace(/[[\].]/g, '\\$&')}: `));
    expect((error as Error).message).toMatch(message);
  });
});

describe('movedUsers', () => {
  it('counts the buckets whose variant changes, per segment kept by name', () => {
    expect(movedUsers(aSplit(A, B, 50_000), aSplit(A, B, 60_000))).toEqual([{ segment: 'everyone', moved: 10_000 }]);
    expect(movedUsers(aSplit(A, B, 50_000), aSplit(B, A, 50_000))).toEqual([{ segment: 'everyone', moved: 100_000 }]);
    expect(movedUsers(aSplit(A, B), aSplit(A, B))).toEqual([{ segment: 'everyone', moved: 0 }]);
  });

  it('counts a variant swapped in a middle arm, and a split that became one variant', () => {
    const three = (b: string) => ({ segments: [aSegment({ arms: [{ variantId: A, weight: 30_000 }, { variantId: b, weight: 40_000 }, { variantId: C, weight: 30_000 }] })] });
    expect(movedUsers(three(B), three(A))).toEqual([{ segment: 'everyone', moved: 40_000 }]);
    expect(movedUsers(aSplit(A, B, 25_000), { segments: [aSegment({ arms: [{ variantId: A, weight: 100_000 }] })] })).toEqual([{ segment: 'everyone', moved: 75_000 }]);
  });

  it('leaves out segments new or gone', () => {
    const named = (name: string) => ({ segments: [aSegment({ name, arms: [{ variantId: A, weight: 100_000 }] })] });
    expect(movedUsers(named('old'), named('new'))).toEqual([]);
  });
});
