import {
  DEFAULT_GUARD_SETTINGS,
  DEFAULT_ROLLOUT_STAGES,
  type GuardSettings,
  type Rollout,
  type RolloutStage,
} from '../../entities/rollout.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import type { DomainDeps } from '../../ports/deps.js';
import { checkRolloutPlan } from '../../rules/rollout-plan.js';
import { auditNote } from '../access/audit-note.js';
import { requireVariant } from '../components/require-variant.js';
import { loadExperienceTarget, newSalt } from '../experiences/experience-target.js';
import { requestRelease, type RequestedRelease } from '../release-requests/request-release.js';
import { requirePublishPermission } from '../releases/require-publish-permission.js';

export type RolloutStartOutcome = { readonly outcome: 'started'; readonly rollout: Rollout } | RequestedRelease;

/**
 * Starts a canary of `candidateVariantId` against the environment's release, at its first stage
 * (default stages 1% → 5% → 25% → 50% → 100%, an hour each; guard thresholds default to
 * DEFAULT_GUARD_SETTINGS, each overridable). A member's start in a protected environment becomes
 * a release request (plan `rollout`). CONFLICT when nothing is released there, when the candidate
 * is the release, or when a rollout or an experience is live there already.
 */
export async function startRollout(
  input: {
    actor: Actor;
    componentId: string;
    environment: string;
    candidateVariantId: string;
    stages?: readonly RolloutStage[] | undefined;
    guard?: Partial<GuardSettings> | undefined;
  },
  deps: Pick<DomainDeps, 'repos' | 'ids' | 'clock'>,
): Promise<RolloutStartOutcome> {
  const { component, environment } = await loadExperienceTarget(input, deps);
  const { way } = await requirePublishPermission(input.actor, environment, deps);
  const candidate = await requireVariant(component.id, input.candidateVariantId, deps);
  const stages = input.stages ?? DEFAULT_ROLLOUT_STAGES;
  const guard = { ...DEFAULT_GUARD_SETTINGS, ...input.guard };
  checkRolloutPlan(stages, guard);
  const release = await deps.repos.releases.findCurrent(component.id, environment.id);
  if (!release) {
    throw new DomainError(ErrorCode.Conflict, `Nothing is released to ${environment.name} yet: a canary is judged against the release. Publish a variant there first.`);
  }
  if (release.variantId === candidate.id) {
    throw new DomainError(ErrorCode.Conflict, `v${candidate.sequence} is already the release of ${environment.name}: roll out a newer variant.`);
  }
  if (way === 'request') {
    return requestRelease({ actor: input.actor, component, environment, variant: candidate, plan: { kind: 'rollout', stages, guard } }, deps);
  }
  const rollout = await deps.repos.rollouts.start({
    id: deps.ids.newId(),
    componentId: component.id,
    environmentId: environment.id,
    candidateVariantId: candidate.id,
    baselineVariantId: release.variantId,
    salt: newSalt(deps),
    stages,
    guard,
    startedBy: input.actor.userId,
    now: deps.clock.now(),
    audit: auditNote(input.actor, deps),
  });
  return { outcome: 'started', rollout };
}
