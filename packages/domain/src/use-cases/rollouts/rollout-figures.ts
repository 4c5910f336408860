import type { ArmSessions, Rollout } from '../../entities/rollout.js';
import type { Figures } from '../../rules/rollout-guard.js';
import type { RolloutDeps } from './rollout-deps.js';

const NONE: ArmSessions = { sessions: 0, errorSessions: 0 };

/** The candidate's and the release's sessions since `from`. */
export async function armFigures(rollout: Rollout, from: Date, to: Date, deps: Pick<RolloutDeps, 'figures'>): Promise<Figures> {
  const sessions = await deps.figures.sessions({
    componentId: rollout.componentId,
    environment: rollout.environmentName,
    variantIds: [rollout.candidateVariantId, rollout.baselineVariantId],
    from,
    to,
  });
  return { candidate: sessions.get(rollout.candidateVariantId) ?? NONE, release: sessions.get(rollout.baselineVariantId) ?? NONE };
}
