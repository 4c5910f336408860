import type { Rollout } from '../../entities/rollout.js';
import type { Actor } from '../../entities/user.js';
import { invalidInput, protectedEnvironment } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import type { RolloutChange } from '../../ports/rollouts.js';
import { auditNote } from '../access/audit-note.js';
import { requirePublishPermission } from '../releases/require-publish-permission.js';
import { loadLiveRollout } from './load-rollout.js';

export type RolloutAction = 'advance' | 'pause' | 'resume';

/**
 * A person moves a live rollout: `advance` to the next stage (raising exposure: in a protected
 * environment owners and admins only), `pause` (the guard keeps judging, nothing advances), or
 * `resume`. `expectedRevision` is the rollout revision the caller saw: of several changes made
 * with the same one, exactly one succeeds and the others get CONFLICT.
 */
export async function changeRollout(
  input: { actor: Actor; componentId: string; environment: string; action: RolloutAction; expectedRevision: number },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<Rollout> {
  if (!Number.isInteger(input.expectedRevision) || input.expectedRevision < 1) {
    throw invalidInput('expectedRevision', 'must be the rollout revision you last read (get_rollout answers it).');
  }
  const { environment, rollout } = await loadLiveRollout(input, deps);
  const { way } = await requirePublishPermission(input.actor, environment, deps);
  let change: RolloutChange;
  if (input.action === 'advance') {
    if (way === 'request') throw protectedEnvironment(environment.name);
    if (rollout.stageIndex >= rollout.stages.length - 1) {
      throw invalidInput('action', 'the rollout is at its last stage: promote it to release the candidate, or stop it.');
    }
    change = { kind: 'advance', stageIndex: rollout.stageIndex + 1, by: 'person' };
  } else {
    change = input.action === 'pause' ? { kind: 'pause', reason: null } : { kind: 'resume' };
  }
  return deps.repos.rollouts.change({
    rolloutId: rollout.id,
    expectedRevision: input.expectedRevision,
    change,
    now: deps.clock.now(),
    audit: auditNote(input.actor, deps),
  });
}
