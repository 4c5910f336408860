import { DEFAULT_ENVIRONMENTS } from '../../entities/release.js';
import { invalidInput } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import type { NewOrganization } from '../../ports/organizations.js';
import { Limits } from '../../rules/limits.js';
import { hasControlCharacters } from '../../rules/text.js';

/** An organization record with the environments every organization starts with. */
export function newOrganization(rawName: string, deps: Pick<DomainDeps, 'ids'>): NewOrganization {
  const name = organizationName(rawName);
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

/** A name as typed, trimmed, or INVALID_INPUT saying what a name may be. */
export function organizationName(rawName: string): string {
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
  return name;
}

/** The organization sign-up creates for a person ("Ada's organization"), also given to someone left with none. */
export function personalOrganization(
  user: { email: string; displayName: string | null },
  deps: Pick<DomainDeps, 'ids'>,
): NewOrganization {
  const owner = user.displayName ?? user.email.split('@')[0] ?? user.email;
  return newOrganization(`${owner}'s organization`, deps);
}
