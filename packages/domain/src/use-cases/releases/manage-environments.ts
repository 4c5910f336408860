import type { Environment } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { normalizeEnvironmentName } from '../../rules/names.js';
import { changeStamp } from '../access/change-stamp.js';
import { loadManagedEnvironment } from './load-managed-environment.js';

/**
 * Renames an environment. Releases follow it (they reference its id), so hosts
 * asking for the old name get 404 from then on: the dashboard says so before.
 */
export async function renameEnvironment(
  input: { actor: Actor; organizationId: string; environmentId: string; name: string },
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<Environment> {
  const name = normalizeEnvironmentName(input.name);
  const environment = await loadManagedEnvironment(input, deps);
  if (environment.name === name) return environment;
  const renamed = await deps.repos.environments.rename(
    environment.id,
    name,
    changeStamp(input.actor, deps),
  );
  if (!renamed) throw notFound('Environment', input.environmentId);
  return renamed;
}

/** Removes an environment nothing was ever released to; otherwise ENVIRONMENT_IN_USE. */
export async function removeEnvironment(
  input: { actor: Actor; organizationId: string; environmentId: string },
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<void> {
  const environment = await loadManagedEnvironment(input, deps);
  const outcome = await deps.repos.environments.remove(
    environment.id,
    changeStamp(input.actor, deps),
  );
  if (outcome === 'missing') throw notFound('Environment', input.environmentId);
  if (outcome === 'in-use') {
    throw new DomainError(
      ErrorCode.EnvironmentInUse,
      `Environment "${environment.name}" has releases (or had some), so removing it would lose their history. Keep it, or rename it.`,
      { environment: environment.name },
    );
  }
}
