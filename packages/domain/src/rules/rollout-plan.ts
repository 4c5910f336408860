import { ASSIGNMENT_SCALE } from '../entities/experience.js';
import { MAX_ROLLOUT_STAGES, MAX_STAGE_HOLD_MINUTES, type GuardSettings, type RolloutStage } from '../entities/rollout.js';
import { invalidInput } from '../errors/factories.js';
import { percentOf } from './experience-definition.js';

const whole = (field: string, value: number, min: number, max: number, unit: string): void => {
  if (!Number.isInteger(value) || value < min || value > max) {
    throw invalidInput(field, `must be a whole number of ${unit} from ${min} to ${max}, not ${String(value)}.`);
  }
};

/**
 * INVALID_INPUT naming the stage or setting that is wrong: 1 to MAX_ROLLOUT_STAGES stages whose
 * weights rise strictly (a canary only ever grows: its users keep it), each hold at most a week,
 * and guard thresholds in range.
 */
export function checkRolloutPlan(stages: readonly RolloutStage[], guard: GuardSettings): void {
  if (stages.length === 0 || stages.length > MAX_ROLLOUT_STAGES) {
    throw invalidInput('stages', `a rollout has from 1 to ${MAX_ROLLOUT_STAGES} stages, not ${stages.length}.`);
  }
  stages.forEach((stage, i) => {
    whole(`stages[${i}].weight`, stage.weight, 1, ASSIGNMENT_SCALE, `thousandths of a percent (1000 = 1%)`);
    whole(`stages[${i}].holdMinutes`, stage.holdMinutes, 0, MAX_STAGE_HOLD_MINUTES, 'minutes');
    const previous = stages[i - 1];
    if (previous && stage.weight <= previous.weight) {
      throw invalidInput(`stages[${i}].weight`, `${percentOf(stage.weight)} does not rise above the stage before (${percentOf(previous.weight)}): a canary only grows.`);
    }
  });
  whole('guard.minSessionsPerArm', guard.minSessionsPerArm, 1, 1_000_000, 'sessions');
  whole('guard.windowSessions', guard.windowSessions, 50, 1_000_000, 'sessions');
  whole('guard.regressedWindows', guard.regressedWindows, 1, 10, 'windows');
  if (!(guard.minErrorRateRise >= 0 && guard.minErrorRateRise <= 1)) throw invalidInput('guard.minErrorRateRise', 'must be a fraction from 0 to 1 (0.01 = 1 percentage point).');
  if (!(guard.minZ >= 0 && guard.minZ <= 10)) throw invalidInput('guard.minZ', 'must be from 0 to 10.');
  if (!(guard.sampleRatioP >= 0 && guard.sampleRatioP <= 0.5)) throw invalidInput('guard.sampleRatioP', 'must be a p-value from 0 to 0.5 (0 turns the check off).');
}
