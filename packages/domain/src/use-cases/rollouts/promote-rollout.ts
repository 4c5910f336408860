import type { Rollout } from '../../entities/rollout.js';
import type { Actor } from '../../entities/user.js';
import { ErrorCode, isDomainError } from '../../errors/domain-error.js';
import { invalidInput } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { auditNote } from '../access/audit-note.js';
import { requestRelease, type RequestedRelease } from '../release-requests/request-release.js';
import { requirePublishPermission } from '../releases/require-publish-permission.js';
import { loadLiveRollout } from './load-rollout.js';

export type PromoteOutcome = { readonly outcome: 'promoted'; readonly rollout: Rollout } | RequestedRelease;

/**
 * Releases the candidate through the publish path: the release, its history event, audit row and
 * release.published webhook, and the rollout ended as promoted, in one transaction. A member in a
 * protected environment gets a release request for the candidate instead; its approval releases
 * it, which ends the rollout as promoted too.
 */
export async function promoteRollout(
  input: { actor: Actor; componentId: string; environment: string; expectedRevision: number },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<PromoteOutcome> {
  if (!Number.isInteger(input.expectedRevision) || input.expectedRevision < 1) {
    throw invalidInput('expectedRevision', 'must be the rollout revision you last read (get_rollout answers it).');
  }
  const { component, environment, rollout } = await loadLiveRollout(input, deps);
  const { way } = await requirePublishPermission(input.actor, environment, deps);
  const asRequest = () => requestRelease({ actor: input.actor, component, environment, variant: { id: rollout.candidateVariantId } }, deps);
  if (way === 'request') return asRequest();
  try {
    const promoted = await deps.repos.rollouts.change({
      rolloutId: rollout.id,
      expectedRevision: input.expectedRevision,
      change: { kind: 'promote', releaseEventId: deps.ids.newId() },
      now: deps.clock.now(),
      audit: auditNote(input.actor, deps),
    });
    return { outcome: 'promoted', rollout: promoted };
  } catch (error) {
    // Protected meanwhile (the write checks the role again): as publishVariant, the promote becomes a request.
    if (isDomainError(error) && error.code === ErrorCode.EnvironmentProtected) return asRequest();
    throw error;
  }
}
