import type { Environment } from '../../entities/release.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import type { DomainDeps } from '../../ports/deps.js';
import { normalizeEnvironmentName } from '../../rules/names.js';

/**
 * The organization's environment by name; the error lists the names that exist
 * unless the caller may not see them (`listKnown: false`).
 */
export async function requireEnvironment(
  organizationId: string,
  rawName: string,
  deps: Pick<DomainDeps, 'repos'>,
  { listKnown = true }: { listKnown?: boolean } = {},
): Promise<Environment> {
  const name = normalizeEnvironmentName(rawName);
  const environment = await deps.repos.environments.findByName(organizationId, name);
  if (environment) return environment;
  if (!listKnown) {
    throw new DomainError(ErrorCode.NotFound, `Environment "${name}" does not exist in this organization.`, { resource: 'Environment' });
  }
  const known = await deps.repos.environments.listForOrganization(organizationId);
  throw new DomainError(
    ErrorCode.NotFound,
    `Environment "${name}" does not exist in this organization. Known environments: ${known.map((env) => env.name).join(', ') || 'none'}.`,
    { resource: 'Environment' },
  );
}
