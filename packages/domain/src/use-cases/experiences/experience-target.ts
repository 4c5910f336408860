import type { Component } from '../../entities/component.js';
import type { ExperienceDefinition } from '../../entities/experience.js';
import { isUuid } from '../../rules/ids.js';
import type { Environment } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { normalizeEnvironmentName } from '../../rules/names.js';
import { loadAccessibleComponent } from '../access/load-accessible-component.js';
import { requireEnvironment } from '../releases/require-environment.js';

export interface ExperienceTarget {
  readonly component: Component;
  readonly environment: Environment;
}

/** The component (NOT_FOUND unless the actor's) and its organization's environment by name. */
export async function loadExperienceTarget(
  input: { actor: Actor; componentId: string; environment: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<ExperienceTarget> {
  normalizeEnvironmentName(input.environment); // bad input before any lookup
  const component = await loadAccessibleComponent(input.actor, input.componentId, deps);
  const environment = await requireEnvironment(component.organizationId, input.environment, deps);
  return { component, environment };
}

/** Which of the variant ids a definition names are the component's. */
export async function knownVariantIds(componentId: string, definition: ExperienceDefinition, deps: Pick<DomainDeps, 'repos'>): Promise<Set<string>> {
  const named = [...new Set(definition.segments.flatMap((segment) => segment.arms.map((arm) => arm.variantId)))];
  return new Set((await deps.repos.variants.findMany(componentId, named.filter(isUuid))).map((variant) => variant.id));
}

/** A new random salt: each experience phase and each rollout draws its users afresh. */
export const newSalt = (deps: Pick<DomainDeps, 'ids'>): string => deps.ids.newId().replace(/-/g, '').slice(0, 16);
