import type { Component, Variant } from '../../entities/component.js';
import type { ReleaseEvent } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode, isDomainError } from '../../errors/domain-error.js';
import type { DomainDeps } from '../../ports/deps.js';
import { normalizeEnvironmentName } from '../../rules/names.js';
import { loadAccessibleComponent } from '../access/load-accessible-component.js';
import { requireVariant } from '../components/require-variant.js';
import { requireEnvironment } from './require-environment.js';
import { requestRelease, type RequestedRelease } from '../release-requests/request-release.js';
import { requirePublishPermission } from './require-publish-permission.js';
import { auditNote } from '../access/audit-note.js';

export type PublishOutcome =
  | { readonly outcome: 'released'; readonly event: ReleaseEvent; readonly variant: Variant; readonly component: Component }
  | RequestedRelease;

/**
 * Releases a variant (default: the latest) to an environment. Publishing an
 * earlier variant is how a rollback is done; every publish is kept in the history.
 * Roles (rules/roles.ts): a viewer publishes nowhere (FORBIDDEN); a member's publish to a
 * protected environment becomes a release request (outcome `requested`), also when the
 * environment is protected between the check and the write (the write checks again).
 */
export async function publishVariant(
  input: { actor: Actor; componentId: string; environment: string; variantId?: string | undefined },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<PublishOutcome> {
  normalizeEnvironmentName(input.environment); // a malformed name is bad input, before any lookup
  const component = await loadAccessibleComponent(input.actor, input.componentId, deps);
  const environment = await requireEnvironment(component.organizationId, input.environment, deps);
  const { way } = await requirePublishPermission(input.actor, environment, deps);
  const variant = await pickVariant(component.id, input.variantId, deps);
  const asRequest = () => requestRelease({ actor: input.actor, component, environment, variant }, deps);
  if (way === 'request') return asRequest();
  try {
    const event = await deps.repos.releases.publish({
      eventId: deps.ids.newId(),
      componentId: component.id,
      environmentId: environment.id,
      variantId: variant.id,
      releasedBy: input.actor.userId,
      now: deps.clock.now(),
      enforceProtection: true,
      audit: auditNote(input.actor, deps),
    });
    return { outcome: 'released', event, variant, component };
  } catch (error) {
    // Protected meanwhile (the write checks again): the member's publish becomes a request, as the check above would have made it.
    if (isDomainError(error) && error.code === ErrorCode.EnvironmentProtected) return asRequest();
    throw error;
  }
}

async function pickVariant(
  componentId: string,
  variantId: string | undefined,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Variant> {
  if (variantId === undefined) {
    const latest = await deps.repos.variants.findLatest(componentId);
    if (!latest) {
      throw new DomainError(
        ErrorCode.NotFound,
        'This component has no variant yet. Upload one with upload_component and confirm_upload first.',
        { resource: 'Variant' },
      );
    }
    return latest;
  }
  return requireVariant(componentId, variantId, deps);
}
