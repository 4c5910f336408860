import { invalidInput } from '../errors/factories.js';
import { Limits } from './limits.js';
import { normalizeGivenName } from './text.js';

export const normalizeComponentName = (raw: string): string =>
  normalizeGivenName(raw, 'component', Limits.componentNameMaxLength);

export const normalizeFlowName = (raw: string): string => normalizeGivenName(raw, 'flow', Limits.componentNameMaxLength);

/** Component names are unique per organization, case-insensitively ("Header" and "header" are one name). */
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
