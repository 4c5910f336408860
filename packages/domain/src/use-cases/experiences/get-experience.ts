import type { ExperienceDraft, ExperienceRevision } from '../../entities/experience.js';
import type { Rollout } from '../../entities/rollout.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import { loadExperienceTarget } from './experience-target.js';

/** Revisions an experience view lists. */
export const EXPERIENCE_HISTORY = 20;

export interface ExperienceView {
  readonly environment: { readonly id: string; readonly name: string; readonly protected: boolean };
  readonly draft: ExperienceDraft | null;
  /** The newest revision (live unless it has no segments). */
  readonly live: ExperienceRevision | null;
  /** Newest first, at most EXPERIENCE_HISTORY. */
  readonly revisions: readonly ExperienceRevision[];
  /** A live rollout blocks publishing an experience (one of the two at a time). */
  readonly liveRollout: Rollout | null;
}

/** The experience of a component environment, for any member of its organization. */
export async function getExperience(
  input: { actor: Actor; componentId: string; environment: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<ExperienceView> {
  const { component, environment } = await loadExperienceTarget(input, deps);
  const [draft, revisions, liveRollout] = await Promise.all([
    deps.repos.experiences.findDraft(component.id, environment.id),
    deps.repos.experiences.listRevisions(component.id, environment.id, EXPERIENCE_HISTORY),
    deps.repos.rollouts.findLive(component.id, environment.id),
  ]);
  return {
    environment: { id: environment.id, name: environment.name, protected: environment.protected },
    draft,
    live: revisions[0] ?? null,
    revisions,
    liveRollout,
  };
}
