import { histogramBucket, type UsageBucket } from '@cp/domain';
import { aComponent, aUserWithOrganization, aVariant, aUsageEvent as anEvent, usageEvents as events } from '../../src/testing/index.js';
import { createUsageMaintenance, createUsageReader, createUsageWriter } from '../../src/usage/index.js';
import { describeEachBackend } from '../support/backends.js';

const at = (iso: string): Date => new Date(iso);
const brief = (b: UsageBucket) => [b.at.toISOString(), b.environment, b.type, b.count, b.errors];

describeEachBackend('usage reader', (db) => {
  const sql = () => db().database.sql;

  async function aComponentWithVariants() {
    const { user, organization } = await aUserWithOrganization(db().repos);
    const component = await aComponent(db().repos, { organizationId: organization.id, createdBy: user.id });
    const v1 = (await db().repos.variants.findLatest(component.id))!;
    const v2 = await aVariant(db().repos, { componentId: component.id, createdBy: user.id });
    return { organizationId: organization.id, createdBy: user.id, componentId: component.id, v1: v1.id, v2: v2.id };
  }

  /** What the worker's hourly rollup writes, inserted directly. */
  async function anHour(row: { componentId: string; hour: Date; environment: string; variantId: string; type: string; name: string; count: number; errors?: number; histogram?: number[] | null }) {
    await sql().rows({
      text: `INSERT INTO "usage"."hours" ("component_id", "hour", "environment", "variant_id", "type", "name", "count", "errors", "sum", "histogram")
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, $9::int4[])`,
      values: [row.componentId, row.hour, row.environment, row.variantId, row.type, row.name, row.count, row.errors ?? 0, row.histogram ? `{${row.histogram.join(',')}}` : null],
    });
  }

  it('sums whole hours from the hourly rollups and the edges from the minutes, per bucket, environment, variant and type', async () => {
    const { componentId, v1, v2 } = await aComponentWithVariants();
    const writer = createUsageWriter(sql());
    // Before the window; the leading edge; an hour the rollup also holds (its minutes must not count twice); the latest complete
    // hour and the current one, read from the minutes (an hourly row there must not count twice either).
    await writer.append([
      anEvent({ componentId, variantId: v1, at: at('2031-05-01T09:29:00Z') }),
      ...events(3, anEvent({ componentId, variantId: v1, at: at('2031-05-01T09:45:00Z'), value: 3 })),
      ...events(5, anEvent({ componentId, variantId: v1, at: at('2031-05-01T10:10:00Z') })),
      ...events(2, anEvent({ componentId, variantId: v2, at: at('2031-05-01T12:05:00Z'), value: 300 })),
      anEvent({ componentId, variantId: v2, at: at('2031-05-01T12:06:00Z'), type: 'error', name: 'uncaught', value: null, error: { errorClass: 'TypeError', message: 'x', stackHash: '0a1b2c3d' } }),
      anEvent({ componentId, variantId: v2, at: at('2031-05-01T12:20:00Z') }),
    ]);
    const hourly = emptyish(histogramBucket(40), 7);
    await anHour({ componentId, hour: at('2031-05-01T10:00:00Z'), environment: 'staging', variantId: v1, type: 'render', name: 'ready', count: 7, histogram: hourly });
    await anHour({ componentId, hour: at('2031-05-01T11:00:00Z'), environment: 'prod', variantId: v1, type: 'served', name: 'consume', count: 40, histogram: null });
    await anHour({ componentId, hour: at('2031-05-01T12:00:00Z'), environment: 'prod', variantId: v1, type: 'served', name: 'consume', count: 1000, histogram: null });

    const series = await createUsageReader(sql()).series({ componentId, from: at('2031-05-01T09:30:00Z'), to: at('2031-05-01T13:10:00Z'), bucketSeconds: 3600 });
    // Rows come ordered by bucket, environment, variant id and type.
    expect(series.map(brief)).toEqual([
      ['2031-05-01T09:00:00.000Z', 'staging', 'render', 3, 0],
      ['2031-05-01T10:00:00.000Z', 'staging', 'render', 7, 0],
      ['2031-05-01T11:00:00.000Z', 'prod', 'served', 40, 0],
      ['2031-05-01T12:00:00.000Z', 'staging', 'error', 1, 1],
      ['2031-05-01T12:00:00.000Z', 'staging', 'render', 3, 0],
    ]);
    expect(series.map((b) => b.variantId)).toEqual([v1, v1, v1, v2, v2]);
    expect(series[0]!.histogram[histogramBucket(3)]).toBe(3);
    expect(series[1]!.histogram).toEqual(hourly);
    expect(series[2]!.histogram.every((n) => n === 0)).toBe(true);
    expect(series[4]!.sum).toBe(612);

    const days = await createUsageReader(sql()).series({ componentId, from: at('2031-05-01T09:30:00Z'), to: at('2031-05-01T13:10:00Z'), bucketSeconds: 86_400 });
    expect(days.filter((b) => b.type === 'render').map((b) => [...brief(b), b.variantId])).toEqual(
      expect.arrayContaining([
        ['2031-05-01T00:00:00.000Z', 'staging', 'render', 10, 0, v1],
        ['2031-05-01T00:00:00.000Z', 'staging', 'render', 3, 0, v2],
      ]),
    );
    expect(days).toHaveLength(4);
  });

  it('reads a range inside one hour from the minutes alone', async () => {
    const { componentId, v1 } = await aComponentWithVariants();
    await createUsageWriter(sql()).append(events(4, anEvent({ componentId, variantId: v1, at: at('2031-05-02T10:20:00Z') })));
    await anHour({ componentId, hour: at('2031-05-02T10:00:00Z'), environment: 'staging', variantId: v1, type: 'render', name: 'ready', count: 99 });
    const series = await createUsageReader(sql()).series({ componentId, from: at('2031-05-02T10:15:00Z'), to: at('2031-05-02T10:45:00Z'), bucketSeconds: 60 });
    expect(series.map(brief)).toEqual([['2031-05-02T10:20:00.000Z', 'staging', 'render', 4, 0]]);
  });

  it('lists the errors last seen in the range, most counted first', async () => {
    const { componentId, v1 } = await aComponentWithVariants();
    const error = (stackHash: string, message: string) => ({ errorClass: 'TypeError', message, stackHash });
    const anError = (when: string, stackHash: string, message: string) =>
      anEvent({ componentId, variantId: v1, at: at(when), type: 'error', name: 'uncaught', value: null, error: error(stackHash, message) });
    await createUsageWriter(sql()).append([
      anError('2031-05-03T08:00:00Z', 'aaaaaaaa', 'old'),
      anError('2031-05-03T10:00:00Z', 'bbbbbbbb', 'once'),
      anError('2031-05-03T10:01:00Z', 'cccccccc', 'twice'),
      anError('2031-05-03T10:02:00Z', 'cccccccc', 'twice, latest message'),
      anError('2031-05-03T10:03:00Z', 'dddddddd', 'third'),
    ]);
    const reader = createUsageReader(sql());
    const top = await reader.topErrors({ componentId, from: at('2031-05-03T09:00:00Z'), to: at('2031-05-03T11:00:00Z'), limit: 2 });
    expect(top).toEqual([
      { environment: 'staging', variantId: v1, stackHash: 'cccccccc', errorClass: 'TypeError', message: 'twice, latest message', count: 2, firstSeen: at('2031-05-03T10:01:00Z'), lastSeen: at('2031-05-03T10:02:00Z') },
      { environment: 'staging', variantId: v1, stackHash: 'dddddddd', errorClass: 'TypeError', message: 'third', count: 1, firstSeen: at('2031-05-03T10:03:00Z'), lastSeen: at('2031-05-03T10:03:00Z') },
    ]);
  });

  it("totals every component of the organization from the daily totals, and nothing of another one's", async () => {
    const first = await aComponentWithVariants();
    const second = await aComponent(db().repos, { organizationId: first.organizationId, createdBy: first.createdBy });
    const secondVariant = (await db().repos.variants.findLatest(second.id))!.id;
    const stranger = await aComponentWithVariants();
    const writer = createUsageWriter(sql());
    await writer.append([
      ...events(3, anEvent({ componentId: first.componentId, variantId: first.v1, at: at('2031-05-04T10:20:00Z') })),
      ...events(2, anEvent({ componentId: second.id, variantId: secondVariant, at: at('2031-05-04T10:30:00Z'), environment: 'prod' })),
      anEvent({ componentId: stranger.componentId, variantId: stranger.v1, at: at('2031-05-04T10:30:00Z') }),
    ]);
    await writer.addServed([{ minute: at('2031-05-04T10:31:00Z'), componentId: second.id, environment: 'prod', variantId: secondVariant, count: 6 }]);
    await anHour({ componentId: first.componentId, hour: at('2031-05-04T08:00:00Z'), environment: 'staging', variantId: first.v1, type: 'render', name: 'ready', count: 10 });
    // The worker's rollup: hours from the minutes, then the daily totals the overview reads.
    await createUsageMaintenance(sql()).rollUpHours({ from: at('2031-05-04T10:00:00Z'), until: at('2031-05-04T11:00:00Z') });

    // Whole UTC days from the one that holds `from`.
    const totals = await createUsageReader(sql()).organizationTotals({ organizationId: first.organizationId, from: at('2031-05-04T07:00:00Z'), to: at('2031-05-04T10:40:00Z') });
    expect(totals.map((t) => [t.componentId, t.environment, t.type, t.count]).sort()).toEqual(
      [
        [first.componentId, 'staging', 'render', 13],
        [second.id, 'prod', 'render', 2],
        [second.id, 'prod', 'served', 6],
      ].sort(),
    );
  });
});

function emptyish(bucket: number, count: number): number[] {
  const histogram = new Array<number>(40).fill(0);
  histogram[bucket] = count;
  return histogram;
}
