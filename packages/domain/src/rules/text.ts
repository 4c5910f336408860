import { invalidInput } from '../errors/factories.js';

// C0/C1 control characters (tab and newline included): never part of a name or a tag.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export const hasControlCharacters = (value: string): boolean => CONTROL.test(value);

/**
 * A name people give something (a component, a flow, a preview key): trimmed, not empty,
 * at most `maxLength` characters (code points), no control characters.
 */
export function normalizeGivenName(raw: string, what: string, maxLength: number, whenEmpty = `the ${what} name must not be empty.`): string {
  const name = raw.trim();
  if (name.length === 0) throw invalidInput('name', whenEmpty);
  if ([...name].length > maxLength) {
    throw invalidInput('name', `the ${what} name must be at most ${maxLength} characters.`);
  }
  if (hasControlCharacters(name)) throw invalidInput('name', `the ${what} name must not contain control characters.`);
  return name;
}
