import { randomUUID } from 'node:crypto';
import { ErrorCode } from '../src/errors/domain-error.js';
import { inMemoryDeps } from '../src/testing/test-deps.js';
import { getComponentPage, type ComponentPageInput } from '../src/use-cases/components/get-component-page.js';
import { publishVariant } from '../src/use-cases/releases/publish-variant.js';
import { released } from '../src/testing/publish-outcomes.js';
import { aUser, anUploadedComponent } from './builders.js';

/** A component with `count` variants uploaded in turn by Alice and Bob (a member of her organization). */
async function aComponentWithVariants(count: number) {
  const { deps, repos, objects, clock } = inMemoryDeps();
  const alice = await aUser(deps, 'alice@example.com');
  const bob = await aUser(deps, 'bob@example.com');
  repos.state.memberships.push({ userId: bob.user.id, organizationId: alice.organizationId, role: 'member' });
  const { componentId } = await anUploadedComponent(deps, objects, alice.actor, { name: 'Price tag' });
  for (let i = 2; i <= count; i += 1) {
    clock.advance(60);
    await anUploadedComponent(deps, objects, (i % 2 === 0 ? bob : alice).actor, { componentId });
  }
  const variants = (await repos.variants.listForComponent(componentId, { limit: 100 })).reverse();
  const open = (options: Partial<ComponentPageInput> = {}) =>
    getComponentPage({ actor: alice.actor, componentId, variantId: null, pageSizes: { variants: 3, releaseEvents: 2 }, ...options }, deps);
  const publish = async (environment: string, sequence: number) => {
    clock.advance(60);
    return released(await publishVariant({ actor: alice.actor, componentId, environment, variantId: variants[sequence - 1]!.id }, deps)).event;
  };
  return { deps, repos, objects, alice, bob, componentId, variants, open, publish };
}

const sequences = (items: readonly { variant: { sequence: number } }[]) => items.map(({ variant }) => variant.sequence);
/** Per environment: what it serves, what "publish" and "roll back" offer (sequences). */
const choices = (page: Awaited<ReturnType<typeof getComponentPage>>) =>
  page.environments.map((e) => [e.environment.name, e.current && page.variantsById.get(e.current.variantId)!.sequence, e.publish?.sequence ?? null, e.rollBack?.sequence ?? null]);

describe('getComponentPage', () => {
  it('the latest page: variants newest first with their uploaders read in one call, the latest previewed', async () => {
    const { repos, open, alice, bob } = await aComponentWithVariants(5);
    const reads = { findById: 0, findByIds: 0 };
    const { findById, findByIds } = repos.users;
    Object.assign(repos.users, {
      findById: (id: string) => ((reads.findById += 1), findById(id)),
      findByIds: (ids: readonly string[]) => ((reads.findByIds += 1), findByIds(ids)),
    });
    const page = await open();
    expect(page.component.name).toBe('Price tag');
    expect(sequences(page.variants.items)).toEqual([5, 4, 3]);
    expect(page.variants).toMatchObject({ isLatest: true, newer: null, older: 3 });
    expect(page.history).toMatchObject({ items: [], isLatest: true, newer: null, older: null });
    expect(page.preview?.sequence).toBe(5);
    expect(page.emails).toEqual(new Map([[alice.user.id, 'alice@example.com'], [bob.user.id, 'bob@example.com']]));
    expect(reads).toEqual({ findById: 0, findByIds: 1 });
  });

  it('older variant pages: the newer cursor a page up, "latest" once that passes the newest variant', async () => {
    const { open } = await aComponentWithVariants(8);
    const second = await open({ variantsBefore: 6 });
    expect([sequences(second.variants.items), second.variants.isLatest, second.variants.newer, second.variants.older]).toEqual([[5, 4, 3], false, 'latest', 3]);
    const third = await open({ variantsBefore: 3 });
    expect([sequences(third.variants.items), third.variants.newer, third.variants.older]).toEqual([[2, 1], 6, null]);
    const none = await open({ variantsBefore: 1 });
    expect([none.variants.items, none.variants.newer]).toEqual([[], 4]);
  });

  it('release history pages, and the variants they name even when on no variants page', async () => {
    const { open, publish } = await aComponentWithVariants(5);
    const events = [await publish('staging', 1), await publish('prod', 2), await publish('staging', 5)];
    const latest = await open();
    expect(latest.history.items.map((e) => e.id)).toEqual([events[2]!.id, events[1]!.id]);
    expect(latest.history).toMatchObject({ isLatest: true, newer: null, older: events[1]!.id });
    const older = await open({ releasesBefore: events[1]!.id });
    expect(older.history).toMatchObject({ items: [events[0]], isLatest: false, newer: events[0]!.id, older: null });
    expect(older.variantsById.get(events[0]!.variantId)?.sequence).toBe(1);
    // Back from the oldest page: nothing newer beyond the latest page (the route shows it under its own URL).
    expect((await open({ releasesAfter: events[0]!.id })).history.newer).toBeNull();
  });

  it('offers publishing the latest variant and rolling back: to what the release replaced when older, else to the variant before', async () => {
    const { open, publish } = await aComponentWithVariants(5);
    expect(choices(await open())).toEqual([['prod', null, 5, null], ['staging', null, 5, null]]);
    await publish('prod', 5);
    await publish('staging', 2);
    await publish('staging', 4);
    // prod's first release replaced nothing: back to v4. staging replaced v2: back to v2.
    expect(choices(await open())).toEqual([['prod', 5, null, 4], ['staging', 4, 5, 2]]);
    await publish('prod', 4);
    // A roll back (it replaced a newer v5): further back, never forward.
    expect(choices(await open())).toEqual([['prod', 4, 5, 3], ['staging', 4, 5, 2]]);
    await publish('prod', 1);
    // staging's last event is no longer on the latest history page: back to the variant before v4.
    expect(choices(await open())).toEqual([['prod', 1, 5, null], ['staging', 4, 5, 3]]);
  });

  it('rolls back to a variant on no page read (beyond the latest variants page)', async () => {
    const { open, publish } = await aComponentWithVariants(6);
    await publish('prod', 2);
    const page = await open();
    expect(choices(page)).toEqual([['prod', 2, 6, 1], ['staging', null, 6, null]]);
    expect(page.variantsById.get(page.environments[0]!.rollBack!.id)?.sequence).toBe(1);
  });

  it('previews the variant asked for; another component\'s variant or an unknown one, a bad cursor, an outsider: not found', async () => {
    const { deps, objects, open, variants, alice, componentId } = await aComponentWithVariants(2);
    expect((await open({ variantId: variants[0]!.id })).preview?.sequence).toBe(1);
    const other = await anUploadedComponent(deps, objects, alice.actor, { name: 'Other' });
    for (const variantId of [other.variantId, randomUUID(), 'not-an-id']) {
      await expect(open({ variantId })).rejects.toMatchObject({ code: ErrorCode.NotFound });
    }
    await expect(open({ releasesBefore: randomUUID() })).rejects.toMatchObject({ code: ErrorCode.NotFound });
    const outsider = await aUser(deps);
    await expect(getComponentPage({ actor: outsider.actor, componentId, variantId: null, pageSizes: { variants: 3, releaseEvents: 2 } }, deps)).rejects.toMatchObject({ code: ErrorCode.NotFound });
  });
});
