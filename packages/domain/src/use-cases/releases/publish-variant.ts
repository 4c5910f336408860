import type { Variant } from '../../entities/component.js';
import type { ReleaseEvent } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode, isDomainError } from '../../errors/domain-error.js';
import type { DomainDeps } from '../../ports/deps.js';
import { normalizeEnvironmentName } from '../../rules/names.js';
import { loadAccessibleComponent } from '../access/load-accessible-component.js';
import { requireVariant } from '../components/require-variant.js';
import { requireEnvironment } from './require-environment.js';
import { requirePublishPermission } from './require-publish-permission.js';

/**
 * Releases a variant (default: the latest) to an environment. Publishing an
 * earlier variant is how a rollback is done; every publish is kept in the history.
 * A protected environment takes releases from owners and admins only (ENVIRONMENT_PROTECTED).
 */
export async function publishVariant(
  input: { actor: Actor; componentId: string; environment: string; variantId?: string | undefined },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<{ event: ReleaseEvent; variant: Variant }> {
  normalizeEnvironmentName(input.environment); // a malformed name is bad input, before any lookup
  const component = await loadAccessibleComponent(input.actor, input.componentId, deps);
  const environment = await requireEnvironment(component.organizationId, input.environment, deps);
  await requirePublishPermission(input.actor, environment, deps);
  const variant = await pickVariant(component.id, input.variantId, deps);
  try {
    const event = await deps.repos.releases.publish({
      eventId: deps.ids.newId(),
      componentId: component.id,
      environmentId: environment.id,
      variantId: variant.id,
      releasedBy: input.actor.userId,
      now: deps.clock.now(),
      enforceProtection: true,
    });
    return { event, variant };
  } catch (error) {
    // Protected meanwhile (the write checks again): answer with who can, as the check above would have.
    if (isDomainError(error) && error.code === ErrorCode.EnvironmentProtected) {
      await requirePublishPermission(input.actor, { ...environment, protected: true }, deps);
    }
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
