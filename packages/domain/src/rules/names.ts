import { invalidInput } from '../errors/factories.js';
import { Limits } from './limits.js';
import { hasControlCharacters } from './text.js';

/**
 * Names people give things (components, flows): trimmed, 1..100 characters, no
 * control characters. Component names are also unique per organization,
 * case-insensitively ("Header" and "header" are one name).
 */
function normalizeDisplayName(raw: string, what: 'component' | 'flow'): string {
  const name = raw.trim();
  if (name.length === 0) throw invalidInput('name', `the ${what} name must not be empty.`);
  if ([...name].length > Limits.componentNameMaxLength) {
    throw invalidInput('name', `the ${what} name must be at most ${Limits.componentNameMaxLength} characters.`);
  }
  if (hasControlCharacters(name)) throw invalidInput('name', `the ${what} name must not contain control characters.`);
  return name;
}

export const normalizeComponentName = (raw: string): string => normalizeDisplayName(raw, 'component');

export const normalizeFlowName = (raw: string): string => normalizeDisplayName(raw, 'flow');

export const componentNameKey = (name: string): string => name.toLowerCase();

const ENVIRONMENT_NAME = /^[a-z][a-z0-9-]*$/;

/** Environment names are lower-case slugs: `prod`, `staging`, `eu-canary`. */
export function normalizeEnvironmentName(raw: string): string {
  const name = raw.trim().toLowerCase();
  if (name.length === 0 || name.length > Limits.environmentNameMaxLength || !ENVIRONMENT_NAME.test(name)) {
    throw invalidInput(
      'environment',
      `"${raw.slice(0, 40)}" is not an environment name: use 1-${Limits.environmentNameMaxLength} lower-case letters, digits or "-", starting with a letter (for example "prod").`,
    );
  }
  return name;
}
