import { DEFAULT_GUARD_SETTINGS as GUARD, DEFAULT_ROLLOUT_STAGES, type GuardSettings, type RolloutStage } from '../src/entities/rollout.js';
import { ErrorCode } from '../src/errors/domain-error.js';
import { checkRolloutPlan } from '../src/rules/rollout-plan.js';

const stage = (weight: number, holdMinutes = 60): RolloutStage => ({ weight, holdMinutes });

describe('rollout plans', () => {
  it('accept the default plan, ten rising stages, and one stage straight to 100%', () => {
    expect(() => checkRolloutPlan(DEFAULT_ROLLOUT_STAGES, GUARD)).not.toThrow();
    expect(() => checkRolloutPlan(Array.from({ length: 10 }, (_, i) => stage((i + 1) * 10_000, 7 * 24 * 60)), GUARD)).not.toThrow();
    expect(() => checkRolloutPlan([stage(100_000, 0)], { ...GUARD, sampleRatioP: 0, minZ: 0 })).not.toThrow();
  });

  it.each<[string, RolloutStage[], Partial<GuardSettings>, string, RegExp]>([
    ['no stage', [], {}, 'stages', /from 1 to 10 stages, not 0/],
    ['eleven stages', Array.from({ length: 11 }, (_, i) => stage(i + 1)), {}, 'stages', /not 11/],
    ['a weight of 0', [stage(0)], {}, 'stages[0].weight', /from 1 to 100000, not 0/],
    ['a weight over 100%', [stage(100_001)], {}, 'stages[0].weight', /not 100001/],
    ['a fractional weight', [stage(1_000.5)], {}, 'stages[0].weight', /whole number/],
    ['a weight that does not rise', [stage(5_000), stage(5_000)], {}, 'stages[1].weight', /5% does not rise above the stage before \(5%\)/],
    ['a weight that falls', [stage(5_000), stage(25_000), stage(1_000)], {}, 'stages[2].weight', /1% does not rise above the stage before \(25%\)/],
    ['a negative hold', [stage(1_000, -1)], {}, 'stages[0].holdMinutes', /minutes from 0 to 10080/],
    ['a hold over a week', [stage(1_000, 10_081)], {}, 'stages[0].holdMinutes', /not 10081/],
    ['no sessions per arm', DEFAULT_ROLLOUT_STAGES.slice(), { minSessionsPerArm: 0 }, 'guard.minSessionsPerArm', /from 1/],
    ['windows too small to judge', DEFAULT_ROLLOUT_STAGES.slice(), { windowSessions: 49 }, 'guard.windowSessions', /from 50/],
    ['no regressed window', DEFAULT_ROLLOUT_STAGES.slice(), { regressedWindows: 0 }, 'guard.regressedWindows', /from 1 to 10/],
    ['a rise over 1', DEFAULT_ROLLOUT_STAGES.slice(), { minErrorRateRise: 1.5 }, 'guard.minErrorRateRise', /fraction from 0 to 1/],
    ['a rise that is not a number', DEFAULT_ROLLOUT_STAGES.slice(), { minErrorRateRise: Number.NaN }, 'guard.minErrorRateRise', /fraction/],
    ['a negative z', DEFAULT_ROLLOUT_STAGES.slice(), { minZ: -1 }, 'guard.minZ', /from 0 to 10/],
    ['a sample-ratio p over 0.5', DEFAULT_ROLLOUT_STAGES.slice(), { sampleRatioP: 0.6 }, 'guard.sampleRatioP', /p-value from 0 to 0.5/],
  ])('refuse %s, naming it', (_, stages, guard, field, message) => {
    let error: unknown = null;
    try {
      checkRolloutPlan(stages, { ...GUARD, ...guard });
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toMatchObject({ code: ErrorCode.InvalidInput, details: { field } });
    expect((error as Error).message).toMatch(message);
  });
});
