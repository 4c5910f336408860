import type { Rollout } from '../../entities/rollout.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import type { DomainDeps } from '../../ports/deps.js';
import { loadExperienceTarget, type ExperienceTarget } from '../experiences/experience-target.js';

/** The live rollout of a component environment the actor can see; NOT_FOUND naming what to do when none runs. */
export async function loadLiveRollout(
  input: { actor: Actor; componentId: string; environment: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<ExperienceTarget & { rollout: Rollout }> {
  const target = await loadExperienceTarget(input, deps);
  const rollout = await deps.repos.rollouts.findLive(target.component.id, target.environment.id);
  if (!rollout) {
    throw new DomainError(ErrorCode.NotFound, `No rollout is running in ${target.environment.name}: start one with start_rollout.`, { resource: 'Rollout' });
  }
  return { ...target, rollout };
}
