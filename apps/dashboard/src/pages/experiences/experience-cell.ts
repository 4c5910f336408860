import { percentOf, type ExperienceView } from '@cp/domain';
import { html, type SafeHtml } from '@cp/web-forms';
import { experiencePath, rolloutPath } from './paths.js';

/**
 * An environment's row on the component page: what splits its users now (the live experience
 * revision, or the live rollout's stage and weight), with links to its experience and rollout pages.
 */
export function experienceCell(componentId: string, environment: string, view: ExperienceView | undefined, label: (variantId: string | null) => string): SafeHtml {
  const rollout = view?.liveRollout ?? null;
  const live = view?.live !== null && view?.live !== undefined && view.live.definition.segments.length > 0 ? view.live : null;
  const state =
    rollout !== null
      ? `rollout of ${label(rollout.candidateVariantId)} ${rollout.state}: stage ${rollout.stageIndex + 1} of ${rollout.stages.length}, ${percentOf(rollout.weight)}`
      : live !== null
        ? `experience revision ${live.number} live`
        : 'none';
  return html`<span data-testid="experience-state">${state}</span> <a href="${experiencePath(componentId, environment)}" aria-label="Experience of ${environment}">Experience</a> <a href="${rolloutPath(componentId, environment)}" aria-label="Rollout of ${environment}">Rollout</a>`;
}
