import {
  DEFAULT_GUARD_SETTINGS as D,
  MAX_ROLLOUT_STAGES,
  MAX_STAGE_HOLD_MINUTES,
  type ArmSessions,
  type GuardSettings,
  type Rollout,
  type RolloutStage,
  percentOf,
} from '@cp/domain';
import { z } from 'zod';
import { isoTime } from './define.js';
import { percentNumber, percentParam, weightOf } from './percent.js';

/** Rollouts as the tools take and answer them: shares in percent, the stage counted from 1. */

export const stagesInput = z
  .array(
    z.strictObject({
      percent: percentParam('percent').describe(
        "The candidate's share at this stage, in percent; rising from stage to stage.",
      ),
      holdMinutes: z
        .int({
          error: `holdMinutes must be a whole number of minutes from 0 to ${MAX_STAGE_HOLD_MINUTES}.`,
        })
        .min(0, {
          error: `holdMinutes must be a whole number of minutes from 0 to ${MAX_STAGE_HOLD_MINUTES}.`,
        })
        .max(MAX_STAGE_HOLD_MINUTES, {
          error: `holdMinutes must be a whole number of minutes from 0 to ${MAX_STAGE_HOLD_MINUTES}.`,
        })
        .describe('Minimum time at this stage before the guard advances it.'),
    }),
    { error: 'stages must be an array of { percent, holdMinutes }.' },
  )
  .min(1, { error: 'stages needs at least one stage; omit it for the default stages.' })
  .max(MAX_ROLLOUT_STAGES, { error: `a rollout has at most ${MAX_ROLLOUT_STAGES} stages.` })
  .describe('Default: 1, 5, 25, 50, 100 percent, 60 minutes each (the last holds until promoted).');

const number = (field: string) => z.number({ error: `guard.${field} must be a number.` });

const RISE_RANGE = 'guard.errorRateRisePoints must be from 0 to 100 percentage points.';

export const guardInput = z
  .strictObject(
    {
      minSessionsPerArm: z
        .int({ error: 'guard.minSessionsPerArm must be a whole number.' })
        .optional()
        .describe(
          `Sessions each arm needs at a stage before it advances (default ${D.minSessionsPerArm}).`,
        ),
      windowSessions: z
        .int({ error: 'guard.windowSessions must be a whole number.' })
        .optional()
        .describe(
          `Candidate sessions that close a judging window (default ${D.windowSessions}, at least 50).`,
        ),
      // In points here, a fraction in the domain: its range is checked here so that a refusal names this field.
      errorRateRisePoints: number('errorRateRisePoints')
        .min(0, { error: RISE_RANGE })
        .max(100, { error: RISE_RANGE })
        .optional()
        .describe(
          `Percentage points by which the candidate's session error rate must exceed the release's for a window to count as regressed (default ${D.minErrorRateRise * 100}).`,
        ),
      minZ: number('minZ')
        .optional()
        .describe(`Two-proportion z a rise must reach to count (default ${D.minZ}).`),
      regressedWindows: z
        .int({ error: 'guard.regressedWindows must be a whole number.' })
        .optional()
        .describe(`Consecutive regressed windows that roll back (default ${D.regressedWindows}).`),
      sampleRatioP: number('sampleRatioP')
        .optional()
        .describe(
          `A sample-ratio mismatch below this p-value pauses the rollout (default ${D.sampleRatioP}; 0 turns the check off).`,
        ),
    },
    { error: 'guard must be an object of thresholds.' },
  )
  .optional()
  .describe('Thresholds of the guard that judges the candidate each minute; every one optional.');

export const toStages = (
  stages: z.output<typeof stagesInput> | undefined,
): RolloutStage[] | undefined =>
  stages?.map((stage) => ({ weight: weightOf(stage.percent), holdMinutes: stage.holdMinutes }));

export function toGuard(guard: z.output<typeof guardInput>): Partial<GuardSettings> | undefined {
  if (guard === undefined) return undefined;
  const { errorRateRisePoints, ...rest } = guard;
  const settings: Partial<GuardSettings> = Object.fromEntries(
    Object.entries(rest).filter(([, value]) => value !== undefined),
  );
  return errorRateRisePoints === undefined
    ? settings
    : { ...settings, minErrorRateRise: errorRateRisePoints / 100 };
}

export const rolloutShape = z.object({
  rolloutId: z.string(),
  state: z.enum(['running', 'paused', 'promoted', 'stopped', 'rolled_back']),
  candidateVariantId: z.string(),
  releaseVariantId: z.string().describe('The release it is compared with (the fallback).'),
  stage: z.int().describe('1-based index into stages.'),
  stages: z.array(z.object({ percent: z.number(), holdMinutes: z.int() })),
  percent: z.number().describe("The candidate's share served now; 0 once stopped or rolled back."),
  revision: z.int().describe('Pass as expectedRevision to change_rollout and promote_rollout.'),
  startedAt: z.string(),
  stageStartedAt: z.string(),
  endedAt: z.string().nullable(),
  reason: z.string().nullable().describe('Why it paused or ended.'),
});

export const toRollout = (rollout: Rollout): z.infer<typeof rolloutShape> => ({
  rolloutId: rollout.id,
  state: rollout.state,
  candidateVariantId: rollout.candidateVariantId,
  releaseVariantId: rollout.baselineVariantId,
  stage: rollout.stageIndex + 1,
  stages: rollout.stages.map((stage) => ({
    percent: percentNumber(stage.weight),
    holdMinutes: stage.holdMinutes,
  })),
  percent: percentNumber(rollout.weight),
  revision: rollout.revision,
  startedAt: isoTime(rollout.startedAt),
  stageStartedAt: isoTime(rollout.stageStartedAt),
  endedAt: rollout.endedAt === null ? null : isoTime(rollout.endedAt),
  reason: rollout.reason,
});

export const armSessionsShape = z.object({
  sessions: z.int(),
  errorSessions: z.int(),
  errorRate: z.number().nullable().describe('errorSessions / sessions; null without sessions.'),
});

export const toArmSessions = (arm: ArmSessions): z.infer<typeof armSessionsShape> => ({
  sessions: arm.sessions,
  errorSessions: arm.errorSessions,
  errorRate: arm.sessions === 0 ? null : arm.errorSessions / arm.sessions,
});

const STATE_WORDS: Record<Rollout['state'], string> = {
  running: 'running',
  paused: 'paused',
  promoted: 'promoted (the candidate is the release now)',
  stopped: 'stopped (everyone is on the release)',
  rolled_back: 'rolled back by the guard (everyone is on the release)',
};

/** "Rollout of <id> in prod: running at stage 2 of 5 (5%), revision 3." */
export function describeRollout(rollout: Rollout): string {
  const where = `Rollout of ${rollout.candidateVariantId} in ${rollout.environmentName}`;
  const at = `stage ${rollout.stageIndex + 1} of ${rollout.stages.length} (${percentOf(rollout.weight)})`;
  const live = rollout.state === 'running' || rollout.state === 'paused';
  const reason = rollout.reason === null ? '' : ` Reason: ${rollout.reason}`;
  return `${where}: ${STATE_WORDS[rollout.state]}${live ? ` at ${at}` : ''}, revision ${rollout.revision}.${reason}`;
}
