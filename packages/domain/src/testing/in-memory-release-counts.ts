import type { Releases } from '../ports/releases.js';
import { weekStarts } from '../rules/weeks.js';
import type { InMemoryState } from './in-memory-state.js';

/** `Releases.countPerWeek` over the state's events: each week's count, from its Monday up to the next. */
export function inMemoryCountPerWeek(state: InMemoryState): Releases['countPerWeek'] {
  return async (componentId, { from, weeks }) => {
    const bounds = weekStarts(from, weeks + 1);
    return bounds.slice(0, weeks).map((weekStart, i) => ({
      weekStart,
      count: state.releaseEvents.filter(
        (e) => e.componentId === componentId && e.releasedAt >= weekStart && e.releasedAt < bounds[i + 1]!,
      ).length,
    }));
  };
}
