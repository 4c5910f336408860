import type { ExperienceDefinition, ExperienceDraft } from '../../entities/experience.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { checkExperienceDefinition } from '../../rules/experience-definition.js';
import { requirePublishPermission } from '../releases/require-publish-permission.js';
import { knownVariantIds, loadExperienceTarget } from './experience-target.js';

/**
 * Replaces the experience draft of a component environment, checked as a publish would check it
 * (so a draft that saves can be published). Anyone who may publish somewhere may edit drafts,
 * protected environments included: publishing there is what needs an owner or admin.
 */
export async function saveExperienceDraft(
  input: { actor: Actor; componentId: string; environment: string; definition: ExperienceDefinition },
  deps: Pick<DomainDeps, 'repos' | 'clock'>,
): Promise<ExperienceDraft> {
  const { component, environment } = await loadExperienceTarget(input, deps);
  await requirePublishPermission(input.actor, environment, deps);
  checkExperienceDefinition(input.definition, await knownVariantIds(component.id, input.definition, deps));
  return deps.repos.experiences.saveDraft({
    componentId: component.id,
    environmentId: environment.id,
    definition: input.definition,
    updatedBy: input.actor.userId,
    now: deps.clock.now(),
  });
}
