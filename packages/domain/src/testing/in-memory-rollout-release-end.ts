import { randomUUID } from 'node:crypto';
import { AuditKind, type AuditNote } from '../entities/audit-event.js';
import type { Release } from '../entities/release.js';
import { RolloutState, type Rollout } from '../entities/rollout.js';
import { isLive, recordChange, sequenceOf } from './in-memory-rollout-events.js';
import type { InMemoryState } from './in-memory-state.js';

/**
 * As packages/db, inside a release: a live rollout of the environment ends, promoted when its
 * candidate is released, stopped when another variant is (its comparison arm changed).
 */
export function endRolloutOnRelease(state: InMemoryState, release: Release, eventId: string, audit: AuditNote): void {
  const index = state.rollouts.findIndex((r) => r.componentId === release.componentId && r.environmentId === release.environmentId && isLive(r));
  const live = state.rollouts[index];
  if (!live) return;
  const promoted = live.candidateVariantId === release.variantId;
  const rollout: Rollout = {
    ...live,
    ...(promoted
      ? { state: RolloutState.Promoted, reason: null }
      : { state: RolloutState.Stopped, weight: 0, reason: `Stopped: v${sequenceOf(state, release.variantId) ?? '?'} was released meanwhile, so the release arm changed.` }),
    endedAt: release.releasedAt,
    revision: live.revision + 1,
  };
  state.rollouts[index] = rollout;
  state.bumpAssignment(release.componentId, release.environmentId);
  recordChange(
    state,
    promoted ? AuditKind.RolloutPromoted : AuditKind.RolloutStopped,
    { ...audit, eventId: randomUUID() },
    release.releasedAt,
    rollout,
    promoted ? { releaseId: eventId } : { reason: rollout.reason, releaseId: eventId, fromWeight: live.weight },
  );
}
