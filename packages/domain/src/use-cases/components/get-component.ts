import type { Component, Variant } from '../../entities/component.js';
import type { Environment, Release } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { loadAccessibleComponent } from '../access/load-accessible-component.js';
import { resolveVariant } from './resolve-variant.js';

export interface ComponentView {
  readonly component: Component;
  /** Null when content was not requested, or when the component has no variant yet. */
  readonly variant: Variant | null;
  readonly environment: Environment | null;
  readonly release: Release | null;
  readonly html: string | null;
}

/**
 * A component with, by default, its latest variant and HTML; with `environment`,
 * the variant released there. `includeContent: false` is a metadata-only read.
 */
export async function getComponent(
  input: { actor: Actor; componentId: string; environment?: string | undefined; includeContent?: boolean | undefined },
  deps: Pick<DomainDeps, 'repos' | 'objects'>,
): Promise<ComponentView> {
  const component = await loadAccessibleComponent(input.actor, input.componentId, deps);
  if (input.includeContent === false) {
    return { component, variant: null, environment: null, release: null, html: null };
  }
  const resolved = await resolveVariant(component, input.environment, deps);
  const html = resolved.variant
    ? new TextDecoder().decode(await deps.objects.read(resolved.variant.objectKey))
    : null;
  return { component, ...resolved, html };
}
