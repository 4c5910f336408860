import type { WeeklyReleaseCount } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import { invalidInput } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { lastWeeks } from '../../rules/weeks.js';
import { loadAccessibleComponent } from '../access/load-accessible-component.js';

/** A year of weeks: enough for any chart, and a bound on the rows one read returns. */
const MAX_WEEKS = 53;

/**
 * How often a component was released: its release events (publishes and roll backs, every environment)
 * per UTC week (from Monday), for the `weeks` weeks that end with the current one, oldest first; weeks
 * without a release count 0. Only for members of the component's organization (others: NOT_FOUND).
 */
export async function countReleasesPerWeek(
  input: { actor: Actor; componentId: string; weeks: number },
  deps: Pick<DomainDeps, 'repos' | 'clock'>,
): Promise<WeeklyReleaseCount[]> {
  const { weeks } = input;
  if (!Number.isInteger(weeks) || weeks < 1 || weeks > MAX_WEEKS) {
    throw invalidInput('weeks', `must be a whole number from 1 to ${MAX_WEEKS}.`);
  }
  const component = await loadAccessibleComponent(input.actor, input.componentId, deps);
  const [from] = lastWeeks(deps.clock.now(), weeks);
  return deps.repos.releases.countPerWeek(component.id, { from: from!, weeks });
}
