import { DEFAULT_ENVIRONMENTS } from '../../entities/release.js';
import { invalidInput } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import type { NewOrganization } from '../../ports/organizations.js';
import { Limits } from '../../rules/limits.js';
import { hasControlCharacters } from '../../rules/text.js';

/** An organization record with the environments every organization starts with. */
export function newOrganization(rawName: string, deps: Pick<DomainDeps, 'ids'>): NewOrganization {
  const name = rawName.trim();
  if (
    name.length === 0 ||
    [...name].length > Limits.componentNameMaxLength ||
    hasControlCharacters(name)
  ) {
    throw invalidInput(
      'name',
      `an organization name must be 1-${Limits.componentNameMaxLength} characters without control characters.`,
    );
  }
  return {
    id: deps.ids.newId(),
    name,
    environments: DEFAULT_ENVIRONMENTS.map((env) => ({
      id: deps.ids.newId(),
      name: env.name,
      protected: env.protected,
    })),
  };
}
