import type { ReleaseEvent } from '../../entities/release.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Limits } from '../../rules/limits.js';

/** The component's release events in [from, to), newest first, read page by page until one is older. */
export async function releasesBetween(
  componentId: string,
  range: { from: Date; to: Date },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<ReleaseEvent[]> {
  const events: ReleaseEvent[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await deps.repos.releases.history(componentId, {
      limit: Limits.listMax,
      ...(before === undefined ? {} : { before }),
    });
    for (const event of page) {
      if (event.releasedAt < range.from) return events;
      if (event.releasedAt < range.to) events.push(event);
    }
    if (page.length < Limits.listMax) return events;
    before = page.at(-1)!.id;
  }
}
