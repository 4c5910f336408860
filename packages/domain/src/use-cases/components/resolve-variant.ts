import type { Component, Variant } from '../../entities/component.js';
import type { Environment, Release } from '../../entities/release.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import type { DomainDeps } from '../../ports/deps.js';
import { requireEnvironment } from '../releases/require-environment.js';

export interface ResolvedVariant {
  readonly variant: Variant | null;
  readonly environment: Environment | null;
  readonly release: Release | null;
}

/**
 * The variant to show: the one released to `environment`, or without one the
 * latest ("preview"). No access check: callers check it (or serve public reads).
 */
export async function resolveVariant(
  component: Component,
  environmentName: string | undefined,
  deps: Pick<DomainDeps, 'repos'>,
  options: { listKnownEnvironments?: boolean } = {},
): Promise<ResolvedVariant> {
  if (environmentName === undefined) {
    const variant = await deps.repos.variants.findLatest(component.id);
    return { variant, environment: null, release: null };
  }
  const environment = await requireEnvironment(component.organizationId, environmentName, deps, {
    listKnown: options.listKnownEnvironments ?? true,
  });
  const name = environment.name;
  const release = await deps.repos.releases.findCurrent(component.id, environment.id);
  if (!release) {
    throw new DomainError(
      ErrorCode.NotFound,
      `Component "${component.name}" has no release in "${name}" yet. Publish a variant to "${name}" first.`,
      { resource: 'Release' },
    );
  }
  const variant = await deps.repos.variants.findById(release.variantId);
  return { variant, environment, release };
}
