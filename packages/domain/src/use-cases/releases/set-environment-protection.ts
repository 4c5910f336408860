import type { Environment } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { changeStamp } from '../access/change-stamp.js';
import { loadManagedEnvironment } from './load-managed-environment.js';

/** Protects an environment (only owners and admins publish to it) or opens it to every member; owners and admins only. */
export async function setEnvironmentProtection(
  input: { actor: Actor; organizationId: string; environmentId: string; protected: boolean },
  deps: Pick<DomainDeps, 'repos' | 'clock' | 'ids'>,
): Promise<Environment> {
  const environment = await loadManagedEnvironment(input, deps);
  if (environment.protected === input.protected) return environment;
  const changed = await deps.repos.environments.setProtected(
    environment.id,
    input.protected,
    changeStamp(input.actor, deps),
  );
  if (!changed) throw notFound('Environment', input.environmentId);
  return changed;
}
