/*
 * The SDK's own copy of the assignment (docs/experiences.md "Assignment"; the server's is
 * packages/domain/src/rules/assignment.ts): both pass packages/domain/test/assignment-cases.json.
 * It runs in the page, so the user's key and attributes never leave it.
 */

export interface Rule {
  readonly attribute: string;
  readonly operator: string;
  readonly values: readonly string[];
}

export interface Segment {
  readonly rules: readonly Rule[];
  readonly salt: string;
  /** In bucket order: an arm owns the buckets from the previous arm's `upTo` to its own. */
  readonly arms: readonly { readonly arm: string; readonly upTo: number }[];
}

/** The `assignment` descriptor of a `/consume` answer. */
export interface Assignment {
  readonly revision: number;
  /** The arm the answer's body is. */
  readonly arm: string;
  readonly segments: readonly Segment[];
}

/** The arm that serves the environment's release (the fallback). */
export const RELEASE = 'release';

const mix = (k: number): number => Math.imul(((k = Math.imul(k, 0xcc9e2d51)) << 15) | (k >>> 17), 0x1b873593);

/** MurmurHash3 x86 32-bit of the UTF-8 bytes of `text`, seed 0, unsigned. */
function murmur3(text: string): number {
  const bytes = new TextEncoder().encode(text);
  let h = 0;
  let k = 0;
  for (let i = 0; i < bytes.length; i++) {
    k |= bytes[i]! << ((i & 3) * 8);
    if ((i & 3) === 3) {
      h ^= mix(k);
      h = (Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64) | 0;
      k = 0;
    }
  }
  if (bytes.length & 3) h ^= mix(k);
  h ^= bytes.length;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The user's bucket in [0, 100000): scaled, not reduced modulo (which would favour low buckets). */
export const bucketOf = (salt: string, key: string): number => Math.floor((murmur3(`${salt}:${key}`) * 100_000) / 2 ** 32);

/** A missing attribute satisfies no rule, `not_in` included; an operator this SDK does not know, none either. */
function holds({ attribute, operator, values }: Rule, attributes: Readonly<Record<string, string>>): boolean {
  // Only strings count: nothing inherited from Object.prototype is one.
  const value = attributes[attribute];
  if (typeof value !== 'string') return false;
  return operator === 'equals' ? value === values[0] : operator === 'in' ? values.includes(value) : operator === 'not_in' ? !values.includes(value) : operator === 'prefix' && value.startsWith(values[0]!);
}

/**
 * The user's arm: the first segment whose rules all hold decides, by the arm owning the user's bucket.
 * One arm owns every bucket, so it needs no key; a split without a key gets the fallback (a bucket past
 * every arm), never a random draw, which would flicker.
 */
export function armOf(segments: readonly Segment[], key: string | undefined, attributes: Readonly<Record<string, string>>): string {
  for (const { rules, salt, arms } of segments) {
    if (!rules.every((rule) => holds(rule, attributes))) continue;
    const bucket = !arms[1] ? 0 : key ? bucketOf(salt, key) : 100_000;
    return arms.find((arm) => bucket < arm.upTo)?.arm ?? RELEASE;
  }
  return RELEASE;
}

/** The arm to read instead of `body` when its descriptor assigns the user another one; null when `body` is theirs (or has no descriptor). */
export function otherArm(body: unknown, key: string | undefined, attributes: Readonly<Record<string, string>> | undefined): { arm: string; revision: number } | null {
  const to = (body as { assignment?: Assignment } | null)?.assignment;
  const arm = to && armOf(to.segments, key, attributes ?? {});
  return arm && arm !== to.arm ? { arm, revision: to.revision } : null;
}
