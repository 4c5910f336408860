import { randomUUID } from 'node:crypto';
import type { Component, Variant } from '@cp/domain';
import { aComponent, aMemberOf, anAuditNote, aUserWithOrganization, aVariant, type Owner } from '../src/testing/index.js';
import { describeEachBackend, errorCode } from './support/backends.js';

describeEachBackend('releases', (db) => {
  let owner: Owner;
  let component: Component;
  let v1: Variant;
  let v2: Variant;
  const env = (name: string) => owner.environments.find((e) => e.name === name)!;
  const publish = (
    variant: Variant,
    environment: string,
    now = new Date(),
    componentId = component.id,
  ) =>
    db().repos.releases.publish({
      eventId: randomUUID(),
      componentId,
      environmentId: env(environment).id,
      variantId: variant.id,
      releasedBy: owner.user.id,
      now,
      audit: { eventId: randomUUID(), actorId: owner.user.id },
    });

  beforeEach(async () => {
    owner = await aUserWithOrganization(db().repos);
    component = await aComponent(db().repos, {
      organizationId: owner.organization.id,
      createdBy: owner.user.id,
    });
    v1 = (await db().repos.variants.findLatest(component.id))!;
    v2 = await aVariant(db().repos, { componentId: component.id, createdBy: owner.user.id });
  });

  it('publishes, records the replaced variant, and answers the current release', async () => {
    const t1 = new Date('2026-04-01T10:00:00.001Z');
    const first = await publish(v1, 'prod', t1);
    expect(first).toMatchObject({
      componentId: component.id,
      environmentId: env('prod').id,
      environmentName: 'prod',
      variantId: v1.id,
      previousVariantId: null,
      releasedBy: owner.user.id,
      releasedAt: t1,
    });
    const t2 = new Date('2026-04-01T11:00:00.002Z');
    const rollout = await publish(v2, 'prod', t2);
    expect(rollout.previousVariantId).toBe(v1.id);
    const rollback = await publish(v1, 'prod', new Date('2026-04-01T12:00:00Z'));
    expect(rollback.previousVariantId).toBe(v2.id);

    expect(await db().repos.releases.findCurrent(component.id, env('prod').id)).toMatchObject({
      variantId: v1.id,
      environmentName: 'prod',
      releasedAt: new Date('2026-04-01T12:00:00Z'),
    });
    expect(await db().repos.releases.findCurrent(component.id, env('staging').id)).toBeNull();
    expect(await db().repos.releases.findCurrent('x', env('staging').id)).toBeNull();
  });

  it('lists current releases by environment name', async () => {
    await publish(v2, 'staging');
    await publish(v1, 'prod');
    const current = await db().repos.releases.listCurrent(component.id);
    expect(current.map((r) => [r.environmentName, r.variantId])).toEqual([
      ['prod', v1.id],
      ['staging', v2.id],
    ]);
    expect(await db().repos.releases.listCurrent(randomUUID())).toEqual([]);
  });

  it('keeps an append-only history, newest first, in insertion order for equal times', async () => {
    const same = new Date('2026-05-05T05:05:05.555Z');
    const a = await publish(v1, 'staging', same);
    const b = await publish(v2, 'staging', same);
    const c = await publish(v2, 'prod', new Date(same.getTime() + 1));
    const history = await db().repos.releases.history(component.id, { limit: 10 });
    expect(history.map((e) => e.id)).toEqual([c.id, b.id, a.id]);
    expect(history[0]).toEqual(c);
    expect(
      (await db().repos.releases.history(component.id, { limit: 2 })).map((e) => e.id),
    ).toEqual([c.id, b.id]);
  });

  it('pages the history by keyset: before an event for older ones, after it for the newer ones closest to it', async () => {
    // Six events, two per instant: the order within an instant is insertion order.
    const events: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const at = new Date(Date.UTC(2026, 5, 1, 12, Math.floor(i / 2)));
      events.unshift((await publish(i % 2 === 0 ? v1 : v2, 'prod', at)).id);
    }
    const page = async (options: { before?: string; after?: string }) =>
      (await db().repos.releases.history(component.id, { limit: 2, ...options })).map((e) => e.id);
    expect(await page({})).toEqual(events.slice(0, 2));
    expect(await page({ before: events[1]! })).toEqual(events.slice(2, 4));
    // Within one instant: before the newer of two, the older one comes first.
    expect(await page({ before: events[2]! })).toEqual(events.slice(3, 5));
    expect(await page({ before: events[4]! })).toEqual(events.slice(5));
    expect(await page({ before: events[5]! })).toEqual([]);
    expect(await page({ after: events[5]! })).toEqual(events.slice(3, 5));
    expect(await page({ after: events[3]! })).toEqual(events.slice(1, 3));
    expect(await page({ after: events[1]! })).toEqual(events.slice(0, 1));
    expect(await page({ after: events[0]! })).toEqual([]);
    const full = await db().repos.releases.history(component.id, { limit: 10, after: events[5]! });
    expect(full.map((e) => e.id)).toEqual(events.slice(0, 5));
    expect(full[0]).toMatchObject({ environmentName: 'prod', componentId: component.id });
  });

  it('refuses a cursor that is not an event of this component (NOT_FOUND)', async () => {
    const other = await aComponent(db().repos, { organizationId: owner.organization.id, createdBy: owner.user.id });
    const othersEvent = await publish((await db().repos.variants.findLatest(other.id))!, 'prod', new Date(), other.id);
    await publish(v1, 'prod');
    for (const cursor of [othersEvent.id, randomUUID(), 'not-a-uuid']) {
      expect(await errorCode(db().repos.releases.history(component.id, { limit: 5, before: cursor }))).toBe('NOT_FOUND');
      expect(await errorCode(db().repos.releases.history(component.id, { limit: 5, after: cursor }))).toBe('NOT_FOUND');
    }
  });

  it('concurrent publishes to one environment chain their previous variants without a gap', async () => {
    const variants = [
      v1,
      v2,
      await aVariant(db().repos, { componentId: component.id, createdBy: owner.user.id }),
    ];
    const events = await Promise.all(
      [0, 1, 2, 3, 4, 5].map((i) => publish(variants[i % 3]!, 'prod')),
    );
    const history = (await db().repos.releases.history(component.id, { limit: 10 })).reverse();
    expect(history).toHaveLength(events.length);
    expect(history[0]!.previousVariantId).toBeNull();
    for (let i = 1; i < history.length; i++)
      expect(history[i]!.previousVariantId).toBe(history[i - 1]!.variantId);
    const current = await db().repos.releases.findCurrent(component.id, env('prod').id);
    expect(current?.variantId).toBe(history.at(-1)!.variantId);
  });

  it('never dates an event before the one it follows (a publish whose clock was read earlier but locked later)', async () => {
    const later = new Date(Date.now() + 60_000);
    await publish(v1, 'prod', later);
    const second = await publish(v2, 'prod', new Date(later.getTime() - 5_000));
    expect(second.previousVariantId).toBe(v1.id);
    expect(second.releasedAt).toEqual(later);
    const history = (await db().repos.releases.history(component.id, { limit: 10 })).reverse();
    expect(history.map((event) => event.variantId)).toEqual([v1.id, v2.id]);
  });

  it('refuses to publish for a component that does not exist', async () => {
    await expect(publish(v1, 'prod', new Date(), randomUUID())).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('with enforceProtection, checks the flag as it writes: a member is refused on a protected environment, an owner is not', async () => {
    const prod = env('prod');
    const staging = env('staging');
    await db().repos.environments.setProtected(prod.id, true, { now: new Date(), audit: anAuditNote() });
    const member = await aMemberOf(db(), owner.organization.id, 'member');
    const asUser = (userId: string, environmentId: string) =>
      db().repos.releases.publish({
        eventId: randomUUID(),
        componentId: component.id,
        environmentId,
        variantId: v1.id,
        releasedBy: userId,
        now: new Date(),
        enforceProtection: true,
        audit: { eventId: randomUUID(), actorId: userId },
      });
    expect(await errorCode(asUser(member.id, prod.id))).toBe('ENVIRONMENT_PROTECTED');
    expect(await db().repos.releases.findCurrent(component.id, prod.id)).toBeNull();
    await expect(asUser(member.id, staging.id)).resolves.toMatchObject({ environmentName: 'staging' });
    await expect(asUser(owner.user.id, prod.id)).resolves.toMatchObject({ environmentName: 'prod' });
    // Protected after the member's earlier check passed: the write still refuses.
    await db().repos.environments.setProtected(staging.id, true, { now: new Date(), audit: anAuditNote() });
    expect(await errorCode(asUser(member.id, staging.id))).toBe('ENVIRONMENT_PROTECTED');
  });

  it('with enforceProtection, refuses a viewer (FORBIDDEN) everywhere and a stranger too', async () => {
    const viewer = await aMemberOf(db(), owner.organization.id, 'viewer');
    const stranger = await aUserWithOrganization(db().repos);
    for (const userId of [viewer.id, stranger.user.id])
      for (const environment of ['staging', 'prod']) {
        const refused = db().repos.releases.publish({
          eventId: randomUUID(),
          componentId: component.id,
          environmentId: env(environment).id,
          variantId: v1.id,
          releasedBy: userId,
          now: new Date(),
          enforceProtection: true,
          audit: { eventId: randomUUID(), actorId: userId },
        });
        expect(await errorCode(refused)).toBe('FORBIDDEN');
      }
    expect(await db().repos.releases.listCurrent(component.id)).toEqual([]);
  });

  it('records each publish in the audit trail, in its transaction, marking a rollback', async () => {
    await publish(v2, 'staging');
    await publish(v1, 'staging');
    await publish(v2, 'staging');
    const rows = await db().prisma.auditEvent.findMany({
      where: { componentId: component.id, kind: 'release.published' },
      orderBy: { seq: 'asc' },
    });
    expect(rows.map((r) => [r.kind, r.actorId, r.organizationId, r.details])).toEqual([
      ['release.published', owner.user.id, owner.organization.id, { environment: 'staging', variantId: v2.id, variantSequence: 2, previousVariantId: null, previousVariantSequence: null, rollback: false }],
      ['release.published', owner.user.id, owner.organization.id, { environment: 'staging', variantId: v1.id, variantSequence: 1, previousVariantId: v2.id, previousVariantSequence: 2, rollback: true }],
      ['release.published', owner.user.id, owner.organization.id, { environment: 'staging', variantId: v2.id, variantSequence: 2, previousVariantId: v1.id, previousVariantSequence: 1, rollback: false }],
    ]);
  });
});
