import type { ExperienceDefinition, SplitPhase } from './experience.js';
import type { GuardSettings, RolloutStage } from './rollout.js';

/**
 * What a release request asks for (entities/release-request.ts): a release of its variant, or,
 * in a protected environment, a member's experience publish or rollout start, which an owner or
 * admin approves like a release. The request's variant is then the candidate (rollout) or the
 * release the experience sits on (experience).
 */
export type ReleaseRequestPlan =
  | { readonly kind: 'release' }
  | { readonly kind: 'experience'; readonly definition: ExperienceDefinition; readonly phase: SplitPhase; readonly republishedFrom: number | null }
  | { readonly kind: 'rollout'; readonly stages: readonly RolloutStage[]; readonly guard: GuardSettings };
