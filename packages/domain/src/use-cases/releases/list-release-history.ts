import type { Release, ReleaseEvent } from '../../entities/release.js';
import type { Actor } from '../../entities/user.js';
import { invalidInput, notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { isUuid } from '../../rules/ids.js';
import { Limits } from '../../rules/limits.js';
import { loadAccessibleComponent } from '../access/load-accessible-component.js';
import { pagingNumber } from '../paging/paging-number.js';

export interface ReleaseHistory {
  /** The component's current release per environment. */
  readonly current: Release[];
  /** One page of the append-only history, newest first. */
  readonly history: ReleaseEvent[];
  /** Pass back as `before` for the next older page; null when there is nothing older. */
  readonly olderBefore: string | null;
  /** Pass back as `after` for the next newer page; null on the latest page. */
  readonly newerAfter: string | null;
}

/**
 * Current releases per environment and one keyset page of the history, newest first: the latest
 * `limit` events, or those just older than the event `before`, or just newer than the event
 * `after` (when nothing newer is left beyond them, that is the latest page, and the latest page
 * is what comes back). Cursors are event ids of this component; any other id is NOT_FOUND.
 */
export async function listReleaseHistory(
  input: { actor: Actor; componentId: string; limit?: number | undefined; before?: string | undefined; after?: string | undefined },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<ReleaseHistory> {
  const limit = pagingNumber('limit', input.limit ?? Limits.listDefault, Limits.listMax);
  if (input.before !== undefined && input.after !== undefined) {
    throw invalidInput('before', 'give either before or after, not both.');
  }
  const component = await loadAccessibleComponent(input.actor, input.componentId, deps);
  for (const cursor of [input.before, input.after]) {
    if (cursor !== undefined && !isUuid(cursor)) throw notFound('Release event', cursor);
  }
  const releases = deps.repos.releases;
  // One extra event tells whether another page exists, without a count.
  const [current, rows] = await Promise.all([
    releases.listCurrent(component.id),
    input.before !== undefined
      ? releases.history(component.id, { limit: limit + 1, before: input.before })
      : input.after !== undefined
        ? releases.history(component.id, { limit: limit + 1, after: input.after })
        : releases.history(component.id, { limit: limit + 1 }),
  ]);

  if (input.after !== undefined) {
    if (rows.length > limit) {
      // Events newer than this page remain; the page is the `limit` closest to the cursor.
      const history = rows.slice(rows.length - limit);
      return { current, history, olderBefore: history.at(-1)!.id, newerAfter: history[0]!.id };
    }
    // Nothing newer beyond these: show the latest page, the same as no cursor.
    const latest = await releases.history(component.id, { limit: limit + 1 });
    return { current, ...page(latest, limit), newerAfter: null };
  }
  const older = page(rows, limit);
  // After an older page comes, going back, what is newer than its first event (the cursor event at least).
  const first = older.history[0];
  return { current, ...older, newerAfter: input.before !== undefined && first !== undefined ? first.id : null };
}

function page(rows: ReleaseEvent[], limit: number): { history: ReleaseEvent[]; olderBefore: string | null } {
  const history = rows.slice(0, limit);
  return { history, olderBefore: rows.length > limit ? history.at(-1)!.id : null };
}
