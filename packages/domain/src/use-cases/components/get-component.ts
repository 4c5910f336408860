import type { Component, Variant } from '../../entities/component.js';
import type { Environment, Release } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { loadAccessibleComponent } from '../access/load-accessible-component.js';
import { resolveVariant, type ResolvedVariant } from './resolve-variant.js';

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
  if (input.includeContent === false) {
    const component = await loadAccessibleComponent(input.actor, input.componentId, deps);
    return { component, variant: null, environment: null, release: null, html: null };
  }
  const [component, resolved] =
    input.environment === undefined
      ? await loadWithLatestVariant(input.actor, input.componentId, deps)
      : await loadWithReleasedVariant(input.actor, input.componentId, input.environment, deps);
  const html = resolved.variant
    ? new TextDecoder().decode(await deps.objects.read(resolved.variant.objectKey))
    : null;
  return { component, ...resolved, html };
}

/**
 * The latest variant depends on the component id alone, so it is read alongside
 * the access check: one database round trip instead of two on the most common
 * read. It is returned only once access is confirmed, and an access failure wins
 * over any failure of the variant read, so callers see exactly the sequential
 * answers (a stranger's id is "not found", whatever else happened).
 */
async function loadWithLatestVariant(
  actor: Actor,
  componentId: string,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<[Component, ResolvedVariant]> {
  const [component, latest] = await Promise.allSettled([
    loadAccessibleComponent(actor, componentId, deps),
    deps.repos.variants.findLatest(componentId),
  ]);
  if (component.status === 'rejected') throw component.reason;
  if (latest.status === 'rejected') throw latest.reason;
  return [component.value, { variant: latest.value, environment: null, release: null }];
}

/** The released variant needs the component's organization (its environments): sequential. */
async function loadWithReleasedVariant(
  actor: Actor,
  componentId: string,
  environment: string,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<[Component, ResolvedVariant]> {
  const component = await loadAccessibleComponent(actor, componentId, deps);
  return [component, await resolveVariant(component, environment, deps)];
}
