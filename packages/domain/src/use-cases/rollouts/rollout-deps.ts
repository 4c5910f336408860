import type { DomainDeps } from '../../ports/deps.js';
import type { RolloutFigures } from '../../ports/rollouts.js';

/** Rollout reads and the guard: the repositories, and session figures from usage analytics. */
export interface RolloutDeps extends Pick<DomainDeps, 'repos' | 'ids' | 'clock'> {
  readonly figures: RolloutFigures;
}
