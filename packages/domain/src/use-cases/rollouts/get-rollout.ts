import type { GuardWindow, Rollout } from '../../entities/rollout.js';
import { LIVE_ROLLOUT_STATES } from '../../entities/rollout.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import type { Figures } from '../../rules/rollout-guard.js';
import { loadExperienceTarget } from '../experiences/experience-target.js';
import type { RolloutDeps } from './rollout-deps.js';
import { armFigures } from './rollout-figures.js';

/** Rollouts of a component searched for the environment's latest. */
const RECENT_ROLLOUTS = 50;

export interface RolloutView {
  readonly rollout: Rollout;
  /** The guard's windows, oldest first. */
  readonly windows: readonly GuardWindow[];
  /** Sessions per arm at the current stage, and in the window still open (live rollouts only). */
  readonly stage: Figures | null;
  readonly openWindow: Figures | null;
}

/**
 * The environment's live rollout, or its latest one when none is live, with the guard's windows
 * and the per-arm session figures: for any member of the organization.
 */
export async function getRollout(
  input: { actor: Actor; componentId: string; environment: string },
  deps: RolloutDeps,
): Promise<RolloutView> {
  const { component, environment } = await loadExperienceTarget(input, deps);
  const rollout =
    (await deps.repos.rollouts.findLive(component.id, environment.id)) ??
    (await deps.repos.rollouts.listForComponent(component.id, RECENT_ROLLOUTS)).find((r) => r.environmentId === environment.id);
  if (!rollout) {
    throw new DomainError(ErrorCode.NotFound, `${environment.name} has had no rollout: start one with start_rollout.`, { resource: 'Rollout' });
  }
  const now = deps.clock.now();
  const live = LIVE_ROLLOUT_STATES.includes(rollout.state);
  const [windows, stage, openWindow] = await Promise.all([
    deps.repos.rollouts.windows(rollout.id),
    live ? armFigures(rollout, rollout.stageStartedAt, now, deps) : null,
    live ? armFigures(rollout, rollout.windowStartedAt, now, deps) : null,
  ]);
  return { rollout, windows, stage, openWindow };
}
