import type { ExperienceDefinition, ExperienceRevision, SplitPhase } from '../../entities/experience.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import { invalidInput } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { checkExperienceDefinition, movedUsers, type MovedUsers } from '../../rules/experience-definition.js';
import { auditNote } from '../access/audit-note.js';
import { requestRelease, type RequestedRelease } from '../release-requests/request-release.js';
import { requirePublishPermission } from '../releases/require-publish-permission.js';
import { knownVariantIds, loadExperienceTarget, newSalt } from './experience-target.js';

export type ExperiencePublishOutcome =
  | {
      readonly outcome: 'published';
      readonly revision: ExperienceRevision;
      /** With the salt kept: per segment kept by name, the share of its users whose variant changed. */
      readonly moved: readonly MovedUsers[];
    }
  | RequestedRelease;

/**
 * Publishes the draft (or re-publishes revision `revision`) as a new immutable revision, live at
 * once. `phase` says what a changed split does: `keep` the salt (users at moved boundaries change
 * arm; `moved` reports how many) or start a `new` phase (everyone drawn again). The release is
 * the fallback, so the environment needs one. A member's publish to a protected environment
 * becomes a release request (plan `experience`). With `expectedLive` (the live revision number
 * the caller saw, null for none), a publish made meanwhile answers CONFLICT.
 */
export async function publishExperience(
  input: {
    actor: Actor;
    componentId: string;
    environment: string;
    phase: SplitPhase;
    revision?: number | undefined;
    expectedLive?: number | null | undefined;
  },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<ExperiencePublishOutcome> {
  const { component, environment } = await loadExperienceTarget(input, deps);
  const { way } = await requirePublishPermission(input.actor, environment, deps);
  const definition = await sourceDefinition(component.id, environment.id, input.revision, deps);
  checkExperienceDefinition(definition, await knownVariantIds(component.id, definition, deps));
  const release = await deps.repos.releases.findCurrent(component.id, environment.id);
  if (!release) {
    throw new DomainError(
      ErrorCode.Conflict,
      `Nothing is released to ${environment.name} yet: the release is the experience's fallback. Publish a variant there first.`,
    );
  }
  const republishedFrom = input.revision ?? null;
  if (way === 'request') {
    return requestRelease(
      { actor: input.actor, component, environment, variant: { id: release.variantId }, plan: { kind: 'experience', definition, phase: input.phase, republishedFrom } },
      deps,
    );
  }
  const live = await deps.repos.experiences.findLive(component.id, environment.id);
  const keep = input.phase === 'keep' && live !== null;
  const moved = keep ? movedUsers(live.definition, definition) : [];
  const revision = await deps.repos.experiences.publish({
    componentId: component.id,
    environmentId: environment.id,
    definition,
    salt: keep ? live.salt : newSalt(deps),
    republishedFrom,
    ...(input.expectedLive !== undefined ? { expectedLive: input.expectedLive } : {}),
    moved,
    publishedBy: input.actor.userId,
    now: deps.clock.now(),
    audit: auditNote(input.actor, deps),
  });
  return { outcome: 'published', revision, moved };
}

async function sourceDefinition(
  componentId: string,
  environmentId: string,
  revision: number | undefined,
  deps: Pick<DomainDeps, 'repos'>,
): Promise<ExperienceDefinition> {
  if (revision !== undefined) {
    if (!Number.isInteger(revision) || revision < 1) throw invalidInput('revision', 'must be a revision number (1, 2, ...) from the history.');
    const earlier = await deps.repos.experiences.findRevision(componentId, environmentId, revision);
    if (!earlier) throw new DomainError(ErrorCode.NotFound, `Revision ${revision} of this experience does not exist.`, { resource: 'ExperienceRevision' });
    return earlier.definition;
  }
  const draft = await deps.repos.experiences.findDraft(componentId, environmentId);
  if (!draft) {
    throw new DomainError(ErrorCode.NotFound, 'This environment has no experience draft: save one first (set_experience, or the editor on the dashboard).', {
      resource: 'ExperienceDraft',
    });
  }
  return draft.definition;
}
