import type { PublishOutcome } from '../use-cases/releases/publish-variant.js';

/** The release a publish made; throws (failing the test) when it became a release request. */
export function released(
  outcome: PublishOutcome,
): Extract<PublishOutcome, { outcome: 'released' }> {
  if (outcome.outcome !== 'released')
    throw new Error(`expected a release, got a release request (${outcome.request.id})`);
  return outcome;
}
