import type { Rollout } from '../../entities/rollout.js';
import { ErrorCode, isDomainError } from '../../errors/domain-error.js';
import { GUARD_ACTOR_ID, type RolloutChange } from '../../ports/rollouts.js';
import { guardStep, type GuardDecision } from '../../rules/rollout-guard.js';
import type { RolloutDeps } from './rollout-deps.js';
import { armFigures } from './rollout-figures.js';

export interface GuardRound {
  readonly rolloutId: string;
  readonly decision: GuardDecision['kind'];
  /** The window's outcome, when one closed. */
  readonly outcome?: 'continue' | 'roll_back' | 'pause';
  /** A person changed the rollout meanwhile: this round's decision was dropped, the next round decides again. */
  readonly skipped?: boolean;
}

/** One guard decision as a change of the rollout. */
function changeOf(decision: Exclude<GuardDecision, { kind: 'wait' }>, rollout: Rollout, index: number): RolloutChange {
  if (decision.kind === 'advance') return { kind: 'advance', stageIndex: decision.stageIndex, by: 'guard' };
  return { kind: 'window', window: { ...decision.window, index }, outcome: decision.outcome, reason: decision.reason };
}

/** Evaluates one live rollout (rules/rollout-guard.ts guardStep) and applies what it decides. */
async function evaluateRollout(rollout: Rollout, deps: RolloutDeps): Promise<GuardRound> {
  const now = deps.clock.now();
  const [windows, openWindow, stage] = await Promise.all([
    deps.repos.rollouts.windows(rollout.id),
    armFigures(rollout, rollout.windowStartedAt, now, deps),
    armFigures(rollout, rollout.stageStartedAt, now, deps),
  ]);
  const decision = guardStep({ rollout, now, verdicts: windows.map((w) => w.verdict), openWindow, stage });
  if (decision.kind === 'wait') return { rolloutId: rollout.id, decision: 'wait' };
  try {
    await deps.repos.rollouts.change({
      rolloutId: rollout.id,
      expectedRevision: rollout.revision,
      change: changeOf(decision, rollout, windows.length),
      now,
      audit: { eventId: deps.ids.newId(), actorId: GUARD_ACTOR_ID },
    });
  } catch (error) {
    if (isDomainError(error) && error.code === ErrorCode.Conflict) return { rolloutId: rollout.id, decision: decision.kind, skipped: true };
    throw error;
  }
  return { rolloutId: rollout.id, decision: decision.kind, ...(decision.kind === 'window' ? { outcome: decision.outcome } : {}) };
}

/**
 * The guard job's round: every live rollout, one at a time (a round touches few rows; the job
 * runs every minute). One rollout's failure does not stop the others: it is reported and retried
 * next round.
 */
export async function evaluateRollouts(deps: RolloutDeps): Promise<{ rounds: GuardRound[]; failures: { rolloutId: string; error: unknown }[] }> {
  const rounds: GuardRound[] = [];
  const failures: { rolloutId: string; error: unknown }[] = [];
  for (const rollout of await deps.repos.rollouts.listLive()) {
    try {
      rounds.push(await evaluateRollout(rollout, deps));
    } catch (error) {
      failures.push({ rolloutId: rollout.id, error });
    }
  }
  return { rounds, failures };
}
