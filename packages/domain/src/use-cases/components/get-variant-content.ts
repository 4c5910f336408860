import type { Variant } from '../../entities/component.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { loadAccessibleComponent } from '../access/load-accessible-component.js';
import { requireVariant } from './require-variant.js';

/** One variant of a component of the actor's organizations, with its stored file (a preview of any variant, not only the latest). */
export async function getVariantContent(
  input: { actor: Actor; componentId: string; variantId: string },
  deps: Pick<DomainDeps, 'repos' | 'objects'>,
): Promise<{ variant: Variant; content: Uint8Array }> {
  const component = await loadAccessibleComponent(input.actor, input.componentId, deps);
  const variant = await requireVariant(component.id, input.variantId, deps);
  return { variant, content: await deps.objects.read(variant.objectKey) };
}
