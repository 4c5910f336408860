/*
 * Writes test/assignment-cases.json, the cases every assignment implementation passes (the
 * server's rules/assignment.ts, the host SDK's copy): buckets of salted keys, and which arm
 * segments give. Deterministic: run it again and the file does not change.
 *
 *   node --import tsx scripts/assignment-cases.ts
 */
import { writeFileSync } from 'node:fs';
import type { AssignmentSegment } from '../src/entities/assignment.js';
import { ASSIGNMENT_SCALE, type SegmentRule } from '../src/entities/experience.js';
import { assign, bucketOf } from '../src/rules/assignment.js';
import { seededRandom } from '../src/testing/seeded-random.js';

const random = seededRandom(28);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const hex = (length: number) => Array.from({ length }, () => pick([...'0123456789abcdef'])).join('');

// Salts as newSalt draws them, and odd ones an implementation must not trip on.
const salts = ['9f2c4b1e0a7d3c55', '0000000000000000', 'ffffffffffffffff', '', 'a', 'salt:with:colons', 'sälz', '塩', ...Array.from({ length: 8 }, () => hex(16))];

// Every tail length of the hash (0 to 3 bytes left after the 4-byte blocks), multi-byte UTF-8 and surrogate pairs.
const edgeKeys = [
  '', ' ', '0', 'a', 'ab', 'abc', 'abcd', 'abcde', ':', '::', 'user:42', 'null', 'undefined', '\t', 'line\nbreak', 'x'.repeat(256),
  'é', 'e\u0301', 'José', 'Zoë', 'Ångström', 'straße', 'Ελληνικά', 'кириллица', '日本語', '用户12345', '한국어', 'עברית', 'العربية',
  '😀', '👩‍💻', '🏳️‍🌈', 'a😀b', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
];
const alphabet = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.@:', 'é', 'ü', 'ñ', 'ß', '日', '本', '語', '中', '한', 'ж', '😀', '🚀', '👍🏽'];
const randomKey = () => {
  const shape = pick(['uuid', 'account', 'email', 'text'] as const);
  if (shape === 'uuid') return `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
  if (shape === 'account') return `acct_${Math.floor(random() * 10_000_000)}`;
  if (shape === 'email') return `${hex(6)}@example.com`;
  return Array.from({ length: 1 + Math.floor(random() * 40) }, () => pick(alphabet)).join('');
};

const hash = [
  ...salts.slice(0, 8).flatMap((salt) => edgeKeys.map((key) => ({ salt, key }))),
  ...Array.from({ length: 800 }, () => ({ salt: pick(salts), key: randomKey() })),
].map(({ salt, key }) => ({ salt, key, bucket: bucketOf(salt, key) }));

/** A key of `salt` whose bucket satisfies `wanted`, found by counting up. */
function keyWhere(salt: string, wanted: (bucket: number) => boolean): string {
  for (let n = 0; ; n++) if (wanted(bucketOf(salt, `user-${n}`))) return `user-${n}`;
}

type Rule = SegmentRule;
type WireSegment = { rules: Rule[]; salt: string; arms: { arm: string; upTo: number }[] };
const rule = (attribute: string, operator: Rule['operator'], ...values: string[]): Rule => ({ attribute, operator, values });
const only = (arm: string, rules: Rule[] = [], salt = 'c0ffee00c0ffee00'): WireSegment => ({ rules, salt, arms: [{ arm, upTo: ASSIGNMENT_SCALE }] });
const split = (salt: string, arms: [string, number][], rules: Rule[] = []): WireSegment => ({ rules, salt, arms: arms.map(([arm, upTo]) => ({ arm, upTo })) });

const S = '9f2c4b1e0a7d3c55';
const low = keyWhere(S, (b) => b < 5_000);
const high = keyWhere(S, (b) => b >= 95_000);
const middle = keyWhere(S, (b) => b >= 40_000 && b < 60_000);
const edge = bucketOf(S, middle);
const zero = keyWhere(S, (b) => b === 0);
const top = keyWhere(S, (b) => b === ASSIGNMENT_SCALE - 1);
const de = { country: 'DE', device: 'mobile', plan: 'pro' };

const cases: { name: string; segments: WireSegment[]; key: string | null; attributes: Record<string, string>; expected?: string | null }[] = [
  { name: 'no segments: the fallback', segments: [], key: low, attributes: de },
  { name: 'a segment with no rules takes everyone', segments: [only('v2')], key: null, attributes: {} },
  { name: 'equals holds', segments: [only('v2', [rule('country', 'equals', 'DE')])], key: low, attributes: de },
  { name: 'equals is exact (case)', segments: [only('v2', [rule('country', 'equals', 'de')])], key: low, attributes: de },
  { name: 'equals is exact (no prefix match)', segments: [only('v2', [rule('country', 'equals', 'D')])], key: low, attributes: de },
  { name: 'in holds for one of the values', segments: [only('v2', [rule('country', 'in', 'AT', 'DE', 'CH')])], key: low, attributes: de },
  { name: 'in fails for none of the values', segments: [only('v2', [rule('country', 'in', 'FR', 'IT')])], key: low, attributes: de },
  { name: 'not_in holds when present and none of the values', segments: [only('v2', [rule('country', 'not_in', 'FR', 'IT')])], key: low, attributes: de },
  { name: 'not_in fails for one of the values', segments: [only('v2', [rule('country', 'not_in', 'FR', 'DE')])], key: low, attributes: de },
  { name: 'not_in fails when the attribute is missing', segments: [only('v2', [rule('region', 'not_in', 'EU')])], key: low, attributes: de },
  { name: 'an empty value is present: not_in holds', segments: [only('v2', [rule('country', 'not_in', 'DE')])], key: low, attributes: { country: '' } },
  { name: 'prefix holds', segments: [only('v2', [rule('device', 'prefix', 'mob')])], key: low, attributes: de },
  { name: 'prefix holds for the whole value', segments: [only('v2', [rule('device', 'prefix', 'mobile')])], key: low, attributes: de },
  { name: 'prefix fails', segments: [only('v2', [rule('device', 'prefix', 'desk')])], key: low, attributes: de },
  { name: 'prefix fails for a longer value', segments: [only('v2', [rule('device', 'prefix', 'mobile-ios')])], key: low, attributes: de },
  { name: 'prefix with non-ASCII text', segments: [only('v2', [rule('city', 'prefix', 'Mün')])], key: low, attributes: { city: 'München' } },
  { name: 'equals with CJK and emoji values', segments: [only('v2', [rule('team', 'equals', '日本🚀')])], key: low, attributes: { team: '日本🚀' } },
  { name: 'a missing attribute satisfies no rule', segments: [only('v2', [rule('plan', 'equals', 'pro')])], key: low, attributes: { country: 'DE' } },
  { name: 'attribute names are case-sensitive', segments: [only('v2', [rule('Country', 'equals', 'DE')])], key: low, attributes: de },
  { name: 'an inherited property is not an attribute', segments: [only('v2', [rule('constructor', 'not_in', 'x')])], key: low, attributes: {} },
  { name: 'every rule must hold (all hold)', segments: [only('v2', [rule('country', 'equals', 'DE'), rule('plan', 'in', 'pro', 'team')])], key: low, attributes: de },
  { name: 'every rule must hold (one fails)', segments: [only('v2', [rule('country', 'equals', 'DE'), rule('plan', 'in', 'free')])], key: low, attributes: de },
  { name: 'the first matching segment wins', segments: [only('v3', [rule('country', 'equals', 'DE')]), only('v2')], key: low, attributes: de },
  { name: 'a segment that does not match is skipped', segments: [only('v3', [rule('country', 'equals', 'FR')]), only('v2')], key: low, attributes: de },
  { name: 'no segment matches: the fallback', segments: [only('v3', [rule('country', 'equals', 'FR')]), only('v2', [rule('plan', 'equals', 'free')])], key: low, attributes: de },
  { name: 'a single-arm segment applies without a key', segments: [only('v2', [rule('country', 'equals', 'DE')])], key: null, attributes: de },
  { name: 'a single-arm segment of the release', segments: [only('release', [rule('country', 'equals', 'DE')]), only('v2')], key: low, attributes: de },
  { name: 'a split without a key: the fallback', segments: [split(S, [['v2', 50_000], ['v3', ASSIGNMENT_SCALE]])], key: null, attributes: {} },
  { name: 'a split with an empty key: the fallback', segments: [split(S, [['v2', 50_000], ['v3', ASSIGNMENT_SCALE]])], key: '', attributes: {} },
  { name: 'a split without a key decides: later segments are not tried', segments: [split(S, [['v2', 50_000], ['v3', ASSIGNMENT_SCALE]]), only('v4')], key: null, attributes: {} },
  { name: 'a split: a low bucket gets the first arm', segments: [split(S, [['v2', 50_000], ['v3', ASSIGNMENT_SCALE]])], key: low, attributes: {} },
  { name: 'a split: a high bucket gets the last arm', segments: [split(S, [['v2', 50_000], ['v3', ASSIGNMENT_SCALE]])], key: high, attributes: {} },
  { name: 'three arms: the middle one', segments: [split(S, [['v2', 30_000], ['v3', 70_000], ['release', ASSIGNMENT_SCALE]])], key: middle, attributes: {} },
  { name: 'boundary: a bucket equal to upTo belongs to the next arm', segments: [split(S, [['v2', edge], ['v3', ASSIGNMENT_SCALE]])], key: middle, attributes: {} },
  { name: 'boundary: a bucket one below upTo belongs to the arm', segments: [split(S, [['v2', edge + 1], ['v3', ASSIGNMENT_SCALE]])], key: middle, attributes: {} },
  { name: 'boundary: bucket 0 with the first arm of weight 1', segments: [split(S, [['v2', 1], ['v3', ASSIGNMENT_SCALE]])], key: zero, attributes: {} },
  { name: 'boundary: the last bucket gets the last arm', segments: [split(S, [['v2', ASSIGNMENT_SCALE - 1], ['v3', ASSIGNMENT_SCALE]])], key: top, attributes: {} },
  { name: 'a rollout: the canary owns [0, weight)', segments: [split(S, [['v7', 5_000], ['release', ASSIGNMENT_SCALE]])], key: low, attributes: de },
  { name: 'a rollout: others get the release arm', segments: [split(S, [['v7', 5_000], ['release', ASSIGNMENT_SCALE]])], key: high, attributes: de },
  { name: 'each segment draws with its own salt', segments: [split('0000000000000000', [['v2', 50_000], ['v3', ASSIGNMENT_SCALE]])], key: low, attributes: {} },
  { name: 'a non-ASCII key', segments: [split(S, [['v2', 50_000], ['v3', ASSIGNMENT_SCALE]])], key: 'Zoë-日本-😀', attributes: {} },
  { name: 'rules then a split', segments: [split(S, [['v2', 50_000], ['v3', ASSIGNMENT_SCALE]], [rule('plan', 'in', 'pro', 'team')]), only('v4')], key: high, attributes: de },
];

const assignCases = cases.map(({ name, segments, key, attributes }) => {
  const domainSegments: AssignmentSegment[] = segments.map((s) => ({ ...s, arms: s.arms.map((a) => ({ ...a, variantId: a.arm === 'release' ? null : a.arm })) }));
  return { name, segments, key, attributes, arm: assign(domainSegments, key, attributes)?.arm ?? null };
});

const lines = (rows: unknown[]) => rows.map((row) => `    ${JSON.stringify(row)}`).join(',\n');
writeFileSync(
  new URL('../test/assignment-cases.json', import.meta.url),
  `{\n  "hash": [\n${lines(hash)}\n  ],\n  "assign": [\n${lines(assignCases)}\n  ]\n}\n`,
);
