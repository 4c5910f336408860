import { ASSIGNMENT_SCALE } from '@cp/domain';
import { z } from 'zod';

/*
 * Shares as assistants write them: percentages ("12.5"), at the domain's resolution of a
 * thousandth of a percent. The domain counts in those thousandths (weight 12500 = 12.5%);
 * converting here keeps the tools' numbers the ones a person says.
 */
const PER_PERCENT = ASSIGNMENT_SCALE / 100;

const isThousandth = (percent: number): boolean =>
  Math.abs(percent * PER_PERCENT - Math.round(percent * PER_PERCENT)) < 1e-6;

/** A share from 0.001 to 100 with at most three decimals. */
export const percentParam = (field: string) => {
  const message = `${field} must be a percentage from 0.001 to 100 with at most 3 decimals (12.5 means 12.5%).`;
  return z
    .number({ error: message })
    .min(0.001, { error: message })
    .max(100, { error: message })
    .refine(isThousandth, { error: message })
    .describe('Percentage, 0.001 to 100, at most 3 decimals.');
};

/** The domain's weight of a checked percentage: exact, since it has at most three decimals. */
export const weightOf = (percent: number): number => Math.round(percent * PER_PERCENT);

/** The percentage of a domain weight (12500 -> 12.5). */
export const percentNumber = (weight: number): number => weight / PER_PERCENT;
