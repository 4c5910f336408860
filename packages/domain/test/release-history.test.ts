import { randomUUID } from 'node:crypto';
import { ErrorCode } from '../src/errors/domain-error.js';
import { inMemoryDeps } from '../src/testing/test-deps.js';
import { listReleaseHistory } from '../src/use-cases/releases/list-release-history.js';
import { publishVariant } from '../src/use-cases/releases/publish-variant.js';
import { released } from '../src/testing/publish-outcomes.js';
import { aUser, anUploadedComponent } from './builders.js';

/** A component released `count` times to staging (some at the same instant); the event ids, newest first. */
async function aComponentReleased(count: number) {
  const { deps, objects, clock } = inMemoryDeps();
  const alice = await aUser(deps);
  const { componentId } = await anUploadedComponent(deps, objects, alice.actor);
  const ids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    if (i % 2 === 0) clock.advance(60);
    ids.unshift(released(await publishVariant({ actor: alice.actor, componentId, environment: 'staging' }, deps)).event.id);
  }
  return { deps, objects, alice, componentId, ids };
}

describe('listReleaseHistory pages', () => {
  it('go older through olderBefore and back through newerAfter, each event once, the newest page last', async () => {
    const { deps, alice, componentId, ids } = await aComponentReleased(7);
    const list = (cursor: { before?: string; after?: string } = {}) => listReleaseHistory({ actor: alice.actor, componentId, limit: 3, ...cursor }, deps);
    const pageIds = (page: { history: { id: string }[] }) => page.history.map((e) => e.id);

    const latest = await list();
    expect([pageIds(latest), latest.newerAfter]).toEqual([ids.slice(0, 3), null]);
    const second = await list({ before: latest.olderBefore! });
    expect(pageIds(second)).toEqual(ids.slice(3, 6));
    const last = await list({ before: second.olderBefore! });
    expect([pageIds(last), last.olderBefore]).toEqual([ids.slice(6), null]);

    const back = await list({ after: last.newerAfter! });
    expect([pageIds(back), back.newerAfter, back.olderBefore]).toEqual([ids.slice(3, 6), ids[3], ids[5]]);
    // Fewer than a page newer than ids[3]: "Newer" lands on the latest page.
    expect(await list({ after: back.newerAfter! })).toEqual(latest);
  });

  it('answer NOT_FOUND for a cursor that is not an event of this component, and refuse both cursors at once', async () => {
    const { deps, objects, alice, componentId, ids } = await aComponentReleased(2);
    const another = await anUploadedComponent(deps, objects, alice.actor, { name: 'Another' });
    const othersEvent = released(await publishVariant({ actor: alice.actor, componentId: another.componentId, environment: 'prod' }, deps)).event.id;
    const list = (cursor: { before?: string; after?: string }) => listReleaseHistory({ actor: alice.actor, componentId, ...cursor }, deps);
    for (const cursor of ['not-a-uuid', randomUUID(), othersEvent]) {
      await expect(list({ before: cursor })).rejects.toMatchObject({ code: ErrorCode.NotFound });
      await expect(list({ after: cursor })).rejects.toMatchObject({ code: ErrorCode.NotFound });
    }
    await expect(list({ before: ids[0]!, after: ids[1]! })).rejects.toMatchObject({ code: ErrorCode.InvalidInput });
  });
});
