import type { IncomingMessage } from 'node:http';
import { ATTRIBUTE_NAME, ErrorCode, EXPERIENCE_LIMITS } from '@cp/domain';
import { problem, type Problem } from './problem.js';

/*
 * Who a keyed /consume request is (docs/experiences.md "Delivery"): hosts without the SDK send
 * the user's key and attributes, as `?key=&attr.<name>=` or as the `Cp-Key` and `Cp-Attributes`
 * headers (the latter in query-string form), and get the user's arm.
 */

export const KEY_HEADER = 'Cp-Key';
export const ATTRIBUTES_HEADER = 'Cp-Attributes';
export const ATTRIBUTE_PREFIX = 'attr.';

export interface KeyedRequest {
  /** Null: none sent (a split then answers the fallback). */
  readonly key: string | null;
  readonly attributes: Readonly<Record<string, string>>;
}

export type KeyedOutcome = { readonly keyed: KeyedRequest; readonly problem: null } | { readonly keyed: null; readonly problem: Problem };

/** Query parameters that name one user: kept out of the shared query memo. */
export const isKeyedParameter = (name: string): boolean => name === 'key' || name.startsWith(ATTRIBUTE_PREFIX);

const refused = (message: string): KeyedOutcome => ({ keyed: null, problem: problem(ErrorCode.InvalidInput, message) });

const shown = (value: string): string => (value.length > 40 ? `${value.slice(0, 40)}…` : value);

/**
 * Checks a key and attributes against EXPERIENCE_LIMITS. `names` says how the request spelled
 * them, for the message: `key` / `attr.<name>`, or the headers.
 */
function checkKeyed(
  key: string | null,
  attributes: readonly (readonly [string, string])[],
  names: { key: string; attribute: (name: string) => string; all: string },
): KeyedOutcome {
  const { keyLength, attributesPerRequest, attributeLength, valueLength } = EXPERIENCE_LIMITS;
  if (key !== null && (key.length === 0 || key.length > keyLength))
    return refused(`${names.key} must be 1 to ${keyLength} characters (the user's stable id); it has ${key.length}.`);
  if (attributes.length > attributesPerRequest)
    return refused(`${names.all} names ${attributes.length} attributes; at most ${attributesPerRequest} are taken.`);
  const taken: Record<string, string> = {};
  for (const [name, value] of attributes) {
    const shownName = names.attribute(shown(name));
    if (name.length > attributeLength || !ATTRIBUTE_NAME.test(name))
      return refused(`${shownName}: an attribute name is a letter, then letters, digits, "_", "." or "-", at most ${attributeLength} characters.`);
    if (Object.hasOwn(taken, name)) return refused(`${shownName} was given more than once; give each attribute once.`);
    if (value.length > valueLength) return refused(`${shownName} is ${value.length} characters long; an attribute value is at most ${valueLength}.`);
    taken[name] = value;
  }
  return { keyed: { key, attributes: taken }, problem: null };
}

/** From the query parameters `isKeyedParameter` set apart (in order, repeats included). */
export function keyedFromQuery(pairs: readonly (readonly [string, string])[]): KeyedOutcome {
  const keys = pairs.filter(([name]) => name === 'key');
  if (keys.length > 1) return refused('Parameter "key" was given more than once; give each parameter once.');
  const attributes = pairs
    .filter(([name]) => name !== 'key')
    .map(([name, value]) => [name.slice(ATTRIBUTE_PREFIX.length), value] as const);
  return checkKeyed(keys[0]?.[1] ?? null, attributes, {
    key: 'key',
    attribute: (name) => `Parameter "${ATTRIBUTE_PREFIX}${name}"`,
    all: `The query (${ATTRIBUTE_PREFIX}<name> parameters)`,
  });
}

/** From the `Cp-Key` and `Cp-Attributes` headers; null when the request sends neither. */
export function keyedFromHeaders(req: IncomingMessage): KeyedOutcome | null {
  const key = req.headers['cp-key'];
  const attributes = req.headers['cp-attributes'];
  if (key === undefined && attributes === undefined) return null;
  // Node joins repeated custom headers with ", ": a key or an attribute list is sent once.
  return checkKeyed(
    typeof key === 'string' ? key : null,
    attributes === undefined ? [] : [...new URLSearchParams(String(attributes))],
    {
      key: `Header ${KEY_HEADER}`,
      attribute: (name) => `Header ${ATTRIBUTES_HEADER}: attribute "${name}"`,
      all: `Header ${ATTRIBUTES_HEADER}`,
    },
  );
}
