/**
 * When a release made a component fail more often (docs/rules.md, "Usage: error rate rise"):
 * the variant released in an environment now against the one it replaced, each over the same
 * window. Both need a minimum sample, so one error in two renders is not a spike.
 */
export const ErrorRateRiseRule = {
  /** Renders + errors each variant needs before its rate counts. */
  minimumSample: 100,
  /** How much higher the new rate must be, as a fraction of renders + errors. */
  minimumRise: 0.01,
} as const;

export interface RateSample {
  readonly renders: number;
  readonly errors: number;
}

/** The rise of `current`'s error rate over `previous`'s, or null when it is no rise by the rule. */
export function errorRateRise(current: RateSample, previous: RateSample): number | null {
  const currentSample = current.renders + current.errors;
  const previousSample = previous.renders + previous.errors;
  if (currentSample < ErrorRateRiseRule.minimumSample || previousSample < ErrorRateRiseRule.minimumSample) return null;
  const rise = current.errors / currentSample - previous.errors / previousSample;
  return rise >= ErrorRateRiseRule.minimumRise ? rise : null;
}
