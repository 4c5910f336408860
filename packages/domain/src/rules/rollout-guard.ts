import { RELEASE_ARM, type AssignmentArm, type LiveAssignment } from '../entities/assignment.js';
import { ASSIGNMENT_SCALE } from '../entities/experience.js';
import {
  RolloutState,
  type ArmSessions,
  type GuardSettings,
  type GuardWindow,
  type Rollout,
  type WindowVerdict,
} from '../entities/rollout.js';
import { percentOf } from './experience-definition.js';

/*
 * The rollout guard (docs/experiences.md "The guard"): judged on disjoint windows of at least
 * `windowSessions` candidate sessions, against the release's sessions of the same period. A
 * sliding window re-checked every minute tests the same sessions again and again and raises
 * false alarms; disjoint windows and two regressed windows in a row keep them rare.
 */

const rate = (arm: ArmSessions): number => (arm.sessions === 0 ? 0 : arm.errorSessions / arm.sessions);

/** Pooled two-proportion z of the candidate's session error rate over the release's; 0 when it cannot be computed. */
function twoProportionZ(candidate: ArmSessions, release: ArmSessions): number {
  if (candidate.sessions === 0 || release.sessions === 0) return 0;
  const pooled = (candidate.errorSessions + release.errorSessions) / (candidate.sessions + release.sessions);
  const variance = pooled * (1 - pooled) * (1 / candidate.sessions + 1 / release.sessions);
  return variance === 0 ? 0 : (rate(candidate) - rate(release)) / Math.sqrt(variance);
}

/** Complementary error function (Numerical Recipes' Chebyshev fit, relative error below 1.2e-7). */
function erfc(x: number): number {
  const z = Math.abs(x);
  const t = 1 / (1 + 0.5 * z);
  const r =
    t *
    Math.exp(
      -z * z - 1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 +
        t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? r : 2 - r;
}

/** p-value of a chi-square test (one degree of freedom) of the session split against the candidate's weight. */
export function sampleRatioP(candidateSessions: number, releaseSessions: number, weight: number): number {
  const total = candidateSessions + releaseSessions;
  const share = weight / ASSIGNMENT_SCALE;
  if (total === 0 || share <= 0 || share >= 1) return 1;
  const expectedCandidate = total * share;
  const expectedRelease = total - expectedCandidate;
  const chi2 =
    (candidateSessions - expectedCandidate) ** 2 / expectedCandidate + (releaseSessions - expectedRelease) ** 2 / expectedRelease;
  return erfc(Math.sqrt(chi2 / 2));
}

/** One closed window's figures and verdict. */
function judgeWindow(
  input: { candidate: ArmSessions; release: ArmSessions; weight: number },
  settings: GuardSettings,
): Pick<GuardWindow, 'rise' | 'z' | 'sampleRatioP' | 'verdict'> {
  const rise = rate(input.candidate) - rate(input.release);
  const z = twoProportionZ(input.candidate, input.release);
  const p = sampleRatioP(input.candidate.sessions, input.release.sessions, input.weight);
  // A regression wins over a mismatch: rolling back is safe whatever skewed the split.
  const verdict: WindowVerdict =
    rise >= settings.minErrorRateRise && z >= settings.minZ ? 'regressed' : p < settings.sampleRatioP ? 'sample_ratio_mismatch' : 'healthy';
  return { rise, z, sampleRatioP: p, verdict };
}

export interface Figures {
  readonly candidate: ArmSessions;
  readonly release: ArmSessions;
}

export type GuardDecision =
  | { readonly kind: 'wait' }
  | {
      readonly kind: 'window';
      readonly window: Omit<GuardWindow, 'index'>;
      readonly outcome: 'continue' | 'roll_back' | 'pause';
      /** For the audit row, the webhook and the dashboard: the figures that decided. */
      readonly reason: string | null;
    }
  | { readonly kind: 'advance'; readonly stageIndex: number; readonly weight: number };

export interface GuardInput {
  readonly rollout: Pick<Rollout, 'state' | 'stages' | 'stageIndex' | 'weight' | 'guard' | 'stageStartedAt' | 'windowStartedAt'>;
  readonly now: Date;
  /** Verdicts of the rollout's earlier windows, oldest first. */
  readonly verdicts: readonly WindowVerdict[];
  /** Sessions since `windowStartedAt`. */
  readonly openWindow: Figures;
  /** Sessions since `stageStartedAt`. */
  readonly stage: Figures;
}

const pct = (x: number): string => `${(x * 100).toFixed(2)}%`;

/**
 * One evaluation of a live rollout: close the open window once it holds enough candidate
 * sessions (then roll back after `regressedWindows` regressed windows in a row, or pause after as
 * many sample-ratio mismatches in a row), otherwise advance a running rollout whose hold time has passed and
 * whose arms both have enough sessions at this stage. At 100% there is no release arm to
 * compare with: it waits for a promote.
 */
export function guardStep(input: GuardInput): GuardDecision {
  const { rollout, now, openWindow } = input;
  const settings = rollout.guard;
  if (rollout.state !== RolloutState.Running && rollout.state !== RolloutState.Paused) return { kind: 'wait' };
  if (rollout.weight <= 0 || rollout.weight >= ASSIGNMENT_SCALE) return { kind: 'wait' };
  if (openWindow.candidate.sessions >= settings.windowSessions) {
    const judged = judgeWindow({ ...openWindow, weight: rollout.weight }, settings);
    const window = { from: rollout.windowStartedAt, to: now, weight: rollout.weight, ...openWindow, ...judged };
    const figures =
      `candidate ${openWindow.candidate.errorSessions}/${openWindow.candidate.sessions} sessions with errors (${pct(rate(openWindow.candidate))}), ` +
      `release ${openWindow.release.errorSessions}/${openWindow.release.sessions} (${pct(rate(openWindow.release))}), z ${judged.z.toFixed(2)}`;
    // Like a regression, a mismatch pauses only when it repeats: one window's chance split (users, not sessions, are drawn) is not a broken assignment.
    const mismatches = judged.verdict === 'sample_ratio_mismatch' ? 1 + trailing(input.verdicts, 'sample_ratio_mismatch') : 0;
    if (mismatches >= settings.regressedWindows) {
      const reason =
        `Paused: at ${percentOf(rollout.weight)} the candidate got ${openWindow.candidate.sessions} of ${openWindow.candidate.sessions + openWindow.release.sessions} sessions ` +
        `(chi-square p ${judged.sampleRatioP.toExponential(1)}), ${mismatches} windows in a row. Do all host pages pass a key? Resume once they do.`;
      return { kind: 'window', window, outcome: rollout.state === RolloutState.Running ? 'pause' : 'continue', reason };
    }
    const streak = judged.verdict === 'regressed' ? 1 + trailing(input.verdicts, 'regressed') : 0;
    if (streak >= settings.regressedWindows) {
      return { kind: 'window', window, outcome: 'roll_back', reason: `Rolled back after ${streak} regressed windows: ${figures}.` };
    }
    return { kind: 'window', window, outcome: 'continue', reason: null };
  }
  const last = rollout.stages.length - 1;
  const held = now.getTime() - rollout.stageStartedAt.getTime() >= (rollout.stages[rollout.stageIndex]?.holdMinutes ?? 0) * 60_000;
  const sampled = input.stage.candidate.sessions >= settings.minSessionsPerArm && input.stage.release.sessions >= settings.minSessionsPerArm;
  const lastRegressed = input.verdicts[input.verdicts.length - 1] === 'regressed';
  if (rollout.state === RolloutState.Running && rollout.stageIndex < last && held && sampled && !lastRegressed) {
    const stageIndex = rollout.stageIndex + 1;
    return { kind: 'advance', stageIndex, weight: rollout.stages[stageIndex]!.weight };
  }
  return { kind: 'wait' };
}

function trailing(verdicts: readonly WindowVerdict[], verdict: WindowVerdict): number {
  let count = 0;
  for (let i = verdicts.length - 1; i >= 0 && verdicts[i] === verdict; i--) count++;
  return count;
}

/** The live assignment of a rollout: the candidate (named `candidateArm`, e.g. `v7`) owns [0, weight), the release the rest. */
export function rolloutAssignment(
  rollout: Pick<Rollout, 'candidateVariantId' | 'weight' | 'salt'>,
  assignmentRevision: number,
  candidateArm: string,
): LiveAssignment {
  const arms: AssignmentArm[] = [{ arm: candidateArm, variantId: rollout.candidateVariantId, upTo: rollout.weight }];
  if (rollout.weight < ASSIGNMENT_SCALE) arms.push({ arm: RELEASE_ARM, variantId: null, upTo: ASSIGNMENT_SCALE });
  return { kind: 'rollout', revision: assignmentRevision, segments: [{ rules: [], salt: rollout.salt, arms }] };
}
