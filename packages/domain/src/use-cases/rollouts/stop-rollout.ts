import type { Rollout } from '../../entities/rollout.js';
import type { Actor } from '../../entities/user.js';
import { ErrorCode, isDomainError } from '../../errors/domain-error.js';
import type { DomainDeps } from '../../ports/deps.js';
import { auditNote } from '../access/audit-note.js';
import { requirePublishPermission } from '../releases/require-publish-permission.js';
import { loadLiveRollout } from './load-rollout.js';

/** Attempts of a stop that keeps meeting concurrent changes (the guard's, another person's). */
const STOP_ATTEMPTS = 3;

/**
 * The kill switch: weight 0 at once, everyone back on the release. Anyone who may publish to
 * the environment may stop, protected or not: making things safer needs no approval. Takes no
 * expected revision (a stop must not fail because the guard just closed a window): it retries
 * on the rollout's latest revision.
 */
export async function stopRollout(
  input: { actor: Actor; componentId: string; environment: string; reason?: string | undefined },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<Rollout> {
  for (let attempt = 1; ; attempt++) {
    const { environment, rollout } = await loadLiveRollout(input, deps);
    await requirePublishPermission(input.actor, environment, deps);
    try {
      return await deps.repos.rollouts.change({
        rolloutId: rollout.id,
        expectedRevision: rollout.revision,
        change: { kind: 'stop', reason: input.reason?.trim().slice(0, 500) || 'Stopped by a person.' },
        now: deps.clock.now(),
        audit: auditNote(input.actor, deps),
      });
    } catch (error) {
      if (!(isDomainError(error) && error.code === ErrorCode.Conflict) || attempt >= STOP_ATTEMPTS) throw error;
    }
  }
}
