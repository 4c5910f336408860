import type { GuardSettings, GuardWindow, Rollout, RolloutStage, WindowVerdict } from '@cp/domain';
import type { Prisma } from '../generated/prisma/client.js';

/** What a Rollout entity needs besides the row: its organization and its environment's name. */
export const rolloutJoins = {
  component: { select: { organizationId: true } },
  environment: { select: { name: true } },
} as const;
export type RolloutRow = Prisma.RolloutGetPayload<{ include: typeof rolloutJoins }>;

export const toRollout = (row: RolloutRow): Rollout => ({
  id: row.id,
  organizationId: row.component.organizationId,
  componentId: row.componentId,
  environmentId: row.environmentId,
  environmentName: row.environment.name,
  candidateVariantId: row.candidateVariantId,
  baselineVariantId: row.baselineVariantId,
  salt: row.salt,
  stages: row.stages as unknown as RolloutStage[],
  stageIndex: row.stageIndex,
  weight: row.weight,
  state: row.state,
  revision: row.revision,
  guard: row.guard as unknown as GuardSettings,
  startedBy: row.startedBy,
  startedAt: row.startedAt,
  stageStartedAt: row.stageStartedAt,
  windowStartedAt: row.windowStartedAt,
  endedAt: row.endedAt,
  reason: row.reason,
});

export const toGuardWindow = (row: Prisma.RolloutWindowGetPayload<object>): GuardWindow => ({
  index: row.index,
  from: row.from,
  to: row.to,
  weight: row.weight,
  candidate: { sessions: row.candidateSessions, errorSessions: row.candidateErrorSessions },
  release: { sessions: row.releaseSessions, errorSessions: row.releaseErrorSessions },
  rise: row.rise,
  z: row.z,
  sampleRatioP: row.sampleRatioP,
  verdict: row.verdict as WindowVerdict,
});

/** A window as audit details and webhook data carry it: the figures that decided. */
export const windowFigures = (window: GuardWindow) => ({
  index: window.index,
  from: window.from.toISOString(),
  to: window.to.toISOString(),
  weight: window.weight,
  candidate: { ...window.candidate },
  release: { ...window.release },
  rise: window.rise,
  z: window.z,
  sampleRatioP: window.sampleRatioP,
  verdict: window.verdict,
});

/** The live states, as the partial unique index names them. */
export const LIVE = ['running', 'paused'] as const;
