import type { Release, ReleaseEvent } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import { invalidInput } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Limits } from '../../rules/limits.js';
import { loadAccessibleComponent } from '../access/load-accessible-component.js';

/** Current releases per environment and the append-only history, newest first. */
export async function listReleaseHistory(
  input: { actor: Actor; componentId: string; limit?: number | undefined },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<{ current: Release[]; history: ReleaseEvent[] }> {
  const limit = input.limit ?? Limits.listDefault;
  if (!Number.isInteger(limit) || limit < 1 || limit > Limits.listMax) {
    throw invalidInput('limit', `must be a whole number from 1 to ${Limits.listMax}.`);
  }
  const component = await loadAccessibleComponent(input.actor, input.componentId, deps);
  const [current, history] = await Promise.all([
    deps.repos.releases.listCurrent(component.id),
    deps.repos.releases.history(component.id, { limit }),
  ]);
  return { current, history };
}
