import { randomUUID } from 'node:crypto';
import { getComponentUsage, getOrganizationUsage, histogramPercentile, type UsageEvent } from '@cp/domain';
import { aComponent, aUserWithOrganization, aVariant, type Owner as DbOwner, aUsageEvent as anEvent, usageEvents as events } from '../../src/testing/index.js';
import { createUsageMaintenance, createUsageReader, createUsageWriter } from '../../src/usage/index.js';
import { describeEachBackend, errorCode } from '../support/backends.js';

const NOW = new Date('2031-06-10T12:30:20Z');
const minutesAgo = (n: number): Date => new Date(NOW.getTime() - n * 60_000);
const hoursAgo = (n: number): Date => new Date(NOW.getTime() - n * 3_600_000);
const anError = { errorClass: 'TypeError', message: 'x is undefined', stackHash: '0a1b2c3d' };

describeEachBackend('usage use cases', (db) => {
  const deps = () => ({ repos: db().repos, usage: createUsageReader(db().database.sql), clock: { now: () => NOW } });
  const writer = () => createUsageWriter(db().database.sql);

  async function publish(owner: DbOwner, componentId: string, variantId: string, environment: string, now: Date) {
    await db().repos.releases.publish({
      eventId: randomUUID(),
      componentId,
      environmentId: owner.environments.find((e) => e.name === environment)!.id,
      variantId,
      releasedBy: owner.user.id,
      now,
      audit: { eventId: randomUUID(), actorId: owner.user.id },
    });
  }

  /** In prod: v1 released three days ago and v2 twenty hours ago; renders and errors of each in the last half hour. */
  async function aReleasedComponent(owner: DbOwner, figures: { v1: [number, number]; v2: [number, number]; served?: number }) {
    const component = await aComponent(db().repos, { organizationId: owner.organization.id, createdBy: owner.user.id, now: hoursAgo(80) });
    const v1 = (await db().repos.variants.findLatest(component.id))!;
    const v2 = await aVariant(db().repos, { componentId: component.id, createdBy: owner.user.id, now: hoursAgo(30) });
    await publish(owner, component.id, v1.id, 'prod', hoursAgo(72));
    await publish(owner, component.id, v2.id, 'prod', hoursAgo(20));
    const batch: UsageEvent[] = [];
    for (const [variantId, [renders, errors]] of [[v1.id, figures.v1], [v2.id, figures.v2]] as const) {
      const base = { componentId: component.id, variantId, environment: 'prod' };
      batch.push(...events(renders, anEvent({ ...base, at: minutesAgo(29), value: variantId === v1.id ? 12 : 200 })));
      batch.push(...events(errors, anEvent({ ...base, at: minutesAgo(28), type: 'error', name: 'uncaught', value: null, error: anError })));
    }
    await writer().append(batch);
    if (figures.served) {
      await writer().addServed([{ minute: minutesAgo(5), componentId: component.id, environment: 'prod', variantId: v2.id, count: figures.served }]);
    }
    return { component, v1, v2 };
  }

  let owner: DbOwner;
  beforeEach(async () => {
    owner = await aUserWithOrganization(db().repos);
  });

  it('reports a component by environment and variant, with its release markers and top errors', async () => {
    const { component, v1, v2 } = await aReleasedComponent(owner, { v1: [200, 2], v2: [180, 20], served: 7 });
    await writer().append(events(3, anEvent({ componentId: component.id, variantId: v2.id, at: minutesAgo(10), environment: 'staging' })));

    const report = await getComponentUsage({ actor: { userId: owner.user.id }, componentId: component.id, window: '24h' }, deps());
    expect(report.from.toISOString()).toBe('2031-06-09T12:31:00.000Z');
    expect(report.to.toISOString()).toBe('2031-06-10T12:31:00.000Z');
    expect(report.bucketSeconds).toBe(3600);
    expect(report.total).toMatchObject({ served: 7, renders: 383, errors: 22, errorRate: 22 / 405 });
    expect(report.byEnvironment.map((s) => [s.environment, s.renders, s.errors, s.variantLabel])).toEqual([
      ['prod', 380, 22, null],
      ['staging', 3, 0, null],
    ]);
    expect(report.byVariant.map((s) => [s.environment, s.variantLabel, s.renders, s.errors, s.errorRate])).toEqual([
      ['prod', 'v2', 180, 20, 0.1],
      ['prod', 'v1', 200, 2, 2 / 202],
      ['staging', 'v2', 3, 0, 0],
    ]);
    const prodV1 = report.byVariant.find((s) => s.variantId === v1.id)!;
    expect(prodV1.render.p50).toBe(histogramPercentile(Array.from({ length: 40 }, (_, i) => (i === 8 ? 1 : 0)), 50));
    expect(prodV1.render.p50).toBeGreaterThanOrEqual(11.3);
    expect(prodV1.render.p50).toBeLessThanOrEqual(16);
    expect(report.releases).toEqual([{ at: hoursAgo(20), environment: 'prod', variantId: v2.id, previousVariantId: v1.id, rollback: false }]);
    expect(report.topErrors).toMatchObject([{ errorClass: 'TypeError', message: 'x is undefined', count: 20, variantId: v2.id }, { count: 2, variantId: v1.id }]);
    expect(report.series.filter((p) => p.type === 'render').map((p) => [p.at.toISOString(), p.environment, p.count])).toEqual(
      expect.arrayContaining([['2031-06-10T12:00:00.000Z', 'prod', 180], ['2031-06-10T12:00:00.000Z', 'staging', 3]]),
    );

    const week = await getComponentUsage({ actor: { userId: owner.user.id }, componentId: component.id, window: '7d', environment: ' Staging' }, deps());
    expect(week.bucketSeconds).toBe(6 * 3600);
    expect(week.byEnvironment.map((s) => s.environment)).toEqual(['staging']);
    expect(week.releases).toEqual([]);
    expect(week.topErrors).toEqual([]);
  });

  it('answers a stranger and an unknown id alike, and names the windows there are', async () => {
    const { component } = await aReleasedComponent(owner, { v1: [1, 0], v2: [1, 0] });
    const stranger = await aUserWithOrganization(db().repos);
    const asStranger = getComponentUsage({ actor: { userId: stranger.user.id }, componentId: component.id, window: '7d' }, deps());
    await expect(asStranger).rejects.toThrow(`Component "${component.id}" was not found, or you do not have access to it.`);
    const unknown = randomUUID();
    await expect(getComponentUsage({ actor: { userId: owner.user.id }, componentId: unknown, window: '7d' }, deps())).rejects.toThrow(
      `Component "${unknown}" was not found, or you do not have access to it.`,
    );
    const badWindow = getComponentUsage({ actor: { userId: owner.user.id }, componentId: component.id, window: '90d' }, deps());
    await expect(badWindow).rejects.toThrow('window: must be one of 24h, 7d, 30d.');
    expect(await errorCode(getOrganizationUsage({ actor: { userId: stranger.user.id }, organizationId: owner.organization.id, window: '7d' }, deps()))).toBe('NOT_FOUND');
  });

  it('lists the busiest components and the error rate rises since the last release, with a minimum sample', async () => {
    const worse = await aReleasedComponent(owner, { v1: [200, 2], v2: [180, 20], served: 50 });
    const busy = await aReleasedComponent(owner, { v1: [300, 3], v2: [300, 3], served: 500 });
    const few = await aReleasedComponent(owner, { v1: [2, 0], v2: [1, 1], served: 5 });

    // The overview reads the daily totals the worker keeps: here, its rollup of the current hour.
    await createUsageMaintenance(db().database.sql).rollUpHours({ from: hoursAgo(1), until: new Date('2031-06-10T13:00:00Z') });
    const report = await getOrganizationUsage({ actor: { userId: owner.user.id }, organizationId: owner.organization.id, window: '30d' }, deps());
    expect(report.busiest.map((c) => [c.componentName, c.served])).toEqual([
      [busy.component.name, 500],
      [worse.component.name, 50],
      [few.component.name, 5],
    ]);
    expect(report.errorRateRises).toEqual([
      {
        componentId: worse.component.id,
        componentName: worse.component.name,
        environment: 'prod',
        releasedAt: hoursAgo(20),
        variantId: worse.v2.id,
        variantLabel: 'v2',
        renders: 180,
        errors: 20,
        errorRate: 0.1,
        previousVariantId: worse.v1.id,
        previousVariantLabel: 'v1',
        previousRenders: 200,
        previousErrors: 2,
        previousErrorRate: 2 / 202,
      },
    ]);
  });
});

