import { Queue } from '@cp/db';
import { evaluateRollouts, type RolloutDeps } from '@cp/domain';
import type { Logger } from '@cp/http-runtime';
import { defineJob, type JobDefinition, type QueuePolicy } from '../jobs/job-definition.js';

export interface RolloutGuardDeps extends RolloutDeps {
  readonly log: Logger;
}

/** Every minute: the guard's windows close on sessions, and a regression is rolled back within a minute of the window that shows it. */
export const ROLLOUT_GUARD_SCHEDULE = '* * * * *';

// No retry: the next round comes a minute later and decides on fresher figures. "stately": a slow round never has rounds pile up behind it.
export const ROLLOUT_GUARD_POLICY: QueuePolicy = {
  retryLimit: 0,
  retryDelay: 0,
  retryBackoff: false,
  expireInSeconds: 300,
  policy: 'stately',
};

/**
 * The `rollout-guard` queue (docs/experiences.md, "The guard"): one round of evaluateRollouts over
 * every live rollout. A rollout that could not be evaluated is logged with its id and the round
 * fails once the others are done, so `worker_jobs_total{result="failed"}` shows it.
 */
export function rolloutGuardJob(
  deps: RolloutGuardDeps,
  policy: QueuePolicy = ROLLOUT_GUARD_POLICY,
): JobDefinition {
  return defineJob<Record<string, never>>({
    queue: Queue.RolloutGuard,
    policy,
    schedule: ROLLOUT_GUARD_SCHEDULE,
    async handler() {
      const { rounds, failures } = await evaluateRollouts(deps);
      for (const round of rounds) {
        if (round.decision !== 'wait') deps.log.info(round, 'rollout guard decided');
      }
      for (const { rolloutId, error } of failures)
        deps.log.warn(
          { rolloutId, err: error },
          'rollout guard could not evaluate a rollout; the next round tries again',
        );
      if (failures.length > 0)
        throw new Error(
          `The rollout guard could not evaluate ${failures.length} of ${rounds.length + failures.length} live rollouts.`,
        );
    },
  });
}
