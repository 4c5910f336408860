/**
 * Canary rollouts (docs/experiences.md "Rollouts"): a split of {the release, a candidate} in one
 * environment whose candidate weight moves through stages. The candidate always owns buckets
 * [0, weight), so raising the weight never moves a user out of it. A guard job judges the
 * candidate against the release from usage analytics and rolls it back by itself.
 */

export const RolloutState = {
  Running: 'running',
  /** Held at its weight: no advance; the guard still judges. */
  Paused: 'paused',
  /** The candidate was released: the rollout is over. */
  Promoted: 'promoted',
  /** The kill switch: everyone back on the release. */
  Stopped: 'stopped',
  /** Stopped by the guard. */
  RolledBack: 'rolled_back',
} as const;
export type RolloutState = (typeof RolloutState)[keyof typeof RolloutState];

/** States in which the rollout splits traffic (and blocks a second rollout or an experience). */
export const LIVE_ROLLOUT_STATES: readonly RolloutState[] = [RolloutState.Running, RolloutState.Paused];

export interface RolloutStage {
  /** Candidate share in units of 1/ASSIGNMENT_SCALE (1000 = 1%). */
  readonly weight: number;
  /** Minimum time at this stage before the guard advances it. */
  readonly holdMinutes: number;
}

/** The guard's thresholds, per rollout (defaults: DEFAULT_GUARD_SETTINGS). */
export interface GuardSettings {
  /** Sessions each arm needs at a stage before it advances. */
  readonly minSessionsPerArm: number;
  /** Candidate sessions that close a judging window. */
  readonly windowSessions: number;
  /** How far the candidate's session error rate must exceed the release's (0.01 = 1 percentage point). */
  readonly minErrorRateRise: number;
  /** Two-proportion z the rise must reach. */
  readonly minZ: number;
  /** Consecutive regressed windows that roll back (and consecutive sample-ratio mismatches that pause). */
  readonly regressedWindows: number;
  /** A window whose chi-square p-value of the session split is below this is a sample-ratio mismatch. */
  readonly sampleRatioP: number;
}

export const DEFAULT_GUARD_SETTINGS: GuardSettings = {
  minSessionsPerArm: 200,
  windowSessions: 200,
  minErrorRateRise: 0.01,
  minZ: 3,
  regressedWindows: 2,
  sampleRatioP: 0.001,
};

export const DEFAULT_ROLLOUT_STAGES: readonly RolloutStage[] = [
  { weight: 1_000, holdMinutes: 60 },
  { weight: 5_000, holdMinutes: 60 },
  { weight: 25_000, holdMinutes: 60 },
  { weight: 50_000, holdMinutes: 60 },
  { weight: 100_000, holdMinutes: 0 },
];

/** Sessions of one arm in a period, and how many of them reported an error. */
export interface ArmSessions {
  readonly sessions: number;
  readonly errorSessions: number;
}

export type WindowVerdict = 'healthy' | 'regressed' | 'sample_ratio_mismatch';

/** One disjoint judging window, kept with the figures that decided it. */
export interface GuardWindow {
  readonly index: number;
  readonly from: Date;
  readonly to: Date;
  /** Candidate weight during the window. */
  readonly weight: number;
  readonly candidate: ArmSessions;
  readonly release: ArmSessions;
  /** Candidate error rate minus the release's. */
  readonly rise: number;
  readonly z: number;
  /** Chi-square p-value of the session split against the weight. */
  readonly sampleRatioP: number;
  readonly verdict: WindowVerdict;
}

export interface Rollout {
  readonly id: string;
  readonly organizationId: string;
  readonly componentId: string;
  readonly environmentId: string;
  readonly environmentName: string;
  readonly candidateVariantId: string;
  /** The release when the rollout started (the comparison arm serves the current release). */
  readonly baselineVariantId: string;
  readonly salt: string;
  readonly stages: readonly RolloutStage[];
  /** Index into `stages`; the weight served is `weight` (0 once stopped or rolled back). */
  readonly stageIndex: number;
  readonly weight: number;
  readonly state: RolloutState;
  /** Bumped by every change: the `expectedRevision` of stage changes, promote and stop. */
  readonly revision: number;
  readonly guard: GuardSettings;
  readonly startedBy: string;
  readonly startedAt: Date;
  readonly stageStartedAt: Date;
  /** Where the open judging window starts (the stage start, or the last window's end). */
  readonly windowStartedAt: Date;
  readonly endedAt: Date | null;
  /** Why it paused or ended, in words for a person (the guard's figures, or who stopped it). */
  readonly reason: string | null;
}

/** Most stages one rollout may have. */
export const MAX_ROLLOUT_STAGES = 10;
/** Longest hold of one stage: a week. */
export const MAX_STAGE_HOLD_MINUTES = 7 * 24 * 60;
