import type { Component, Variant } from '../../entities/component.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { isUuid } from '../../rules/ids.js';
import { resolveVariant, type ResolvedVariant } from './resolve-variant.js';

/**
 * Public read for delivery (/consume): the variant released to `environment`,
 * or the latest one. Component ids are unguessable UUIDs; delivery is
 * read-only and serves released UI, so it needs no actor.
 */
export async function resolvePublicVariant(
  { componentId, environment }: { componentId: string; environment?: string | undefined },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<ResolvedVariant & { component: Component; variant: Variant }> {
  const component = isUuid(componentId) ? await deps.repos.components.findById(componentId) : null;
  if (!component) throw notFound('Component', componentId);
  const resolved = await resolveVariant(component, environment, deps);
  if (!resolved.variant) {
    throw new DomainError(ErrorCode.NotFound, `Component "${component.name}" has no variant yet.`, {
      resource: 'Variant',
    });
  }
  return { ...resolved, component, variant: resolved.variant };
}
