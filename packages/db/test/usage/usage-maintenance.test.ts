import { type UsageEvent } from '@cp/domain';
import { aComponent, aUsageEvent, aUserWithOrganization } from '../../src/testing/index.js';
import {
  addDays,
  COUNT_RAW_EVENTS_SQL,
  countRawEvents,
  createUsageMaintenance,
  createUsageWriter,
} from '../../src/usage/index.js';
import { describeEachBackend } from '../support/backends.js';
import { seededRandom as seeded } from '@cp/domain/testing';

const MINUTE = 60_000;
const HOUR = 3_600_000;

/** Events in prod unless told. */
const anEvent = (over: Partial<UsageEvent> & Pick<UsageEvent, 'componentId' | 'variantId' | 'at'>): UsageEvent => aUsageEvent({ environment: 'prod', ...over });


interface Rollup {
  environment: string;
  variantId: string;
  type: string;
  count: number;
  errors: number;
  sum: number;
  histogram: number[] | null;
}

describeEachBackend('usage maintenance', (db) => {
  const rows = <R>(text: string, values: unknown[] = []) => db().database.sql.rows<R>({ text, values });
  const maintenance = () => createUsageMaintenance(db().database.sql);
  const partitions = async () =>
    (
      await rows<{ name: string }>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'usage.events'::regclass ORDER BY 1`,
      )
    ).map((row) => row.name);

  async function aComponentWithVariant() {
    const { user, organization } = await aUserWithOrganization(db().repos);
    const component = await aComponent(db().repos, { organizationId: organization.id, createdBy: user.id });
    const variant = (await db().repos.variants.findLatest(component.id))!;
    return { componentId: component.id, variantId: variant.id };
  }

  /** The rollups of one component over [from, to), summed per environment, variant and type, as countRawEvents sorts them. */
  async function rollups(table: 'minutes' | 'hours', componentId: string, from: Date, to: Date): Promise<Rollup[]> {
    const column = table === 'minutes' ? 'minute' : 'hour';
    const found = await rows<Rollup>(
      `SELECT environment, variant_id::text AS "variantId", type, sum(count)::float8 AS count, sum(errors)::float8 AS errors,
              sum(sum)::float8 AS sum, "usage".histogram_sum(histogram) AS histogram
       FROM "usage"."${table}" WHERE component_id = $1 AND ${column} >= $2 AND ${column} < $3
       GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
      [componentId, from, to],
    );
    return found.map((row) => ({ ...row, sum: round(row.sum) }));
  }
  // Sums of doubles added in another order differ in their last digits.
  const round = (sum: number) => Number(sum.toPrecision(12));

  it('creates the partitions from today to three days ahead, and drops only whole days before the cutoff as days pass', async () => {
    let now = new Date('2032-01-10T23:59:59Z');
    expect(await maintenance().createPartitions(now, 3)).toEqual(['events_20320110', 'events_20320111', 'events_20320112', 'events_20320113']);
    expect(await maintenance().createPartitions(now, 3)).toEqual([]);

    // A week later, the worker's daily round: the days ahead, and the days past a 7-day retention.
    now = addDays(now, 7);
    expect(await maintenance().createPartitions(now, 3)).toEqual(['events_20320117', 'events_20320118', 'events_20320119', 'events_20320120']);
    // A cutoff inside a day keeps that day: only whole days before it go.
    expect(await maintenance().dropPartitionsBefore(new Date('2032-01-11T12:00:00Z'))).toEqual(['events_20320110']);
    expect(await maintenance().dropPartitionsBefore(new Date('2032-01-13T00:00:00Z'))).toEqual(['events_20320111', 'events_20320112']);
    expect(await maintenance().dropPartitionsBefore(new Date('2032-01-13T00:00:00Z'))).toEqual([]);
    expect((await partitions()).filter((name) => name.startsWith('events_2032'))).toEqual([
      'events_20320113',
      'events_20320117',
      'events_20320118',
      'events_20320119',
      'events_20320120',
    ]);
  });

  it('rolls complete hours up from the minutes, which equal the raw events; a re-run and late minutes give the same figures as one run over complete data', async () => {
    const { componentId, variantId } = await aComponentWithVariant();
    const writer = createUsageWriter(db().database.sql);
    const start = new Date('2032-02-01T10:00:00Z');
    const random = seeded(27);
    const error = { errorClass: 'TypeError', message: 'x is undefined', stackHash: '0a1b2c3d' };
    const events: UsageEvent[] = [];
    // Two hours and a half of events, in several minutes, environments and types.
    for (let i = 0; i < 600; i++) {
      const at = new Date(start.getTime() + Math.floor(random() * 150 * MINUTE));
      const kind = random();
      const environment = random() < 0.7 ? 'prod' : 'staging';
      if (kind < 0.6) events.push(anEvent({ componentId, variantId, at, environment, value: Math.round(Math.exp(random() * 8) * 100) / 100 }));
      else if (kind < 0.8) events.push(anEvent({ componentId, variantId, at, environment, type: 'load', name: 'consume', value: random() < 0.1 ? 0 : random() * 400, cacheHit: random() < 0.5 }));
      else if (kind < 0.9) events.push(anEvent({ componentId, variantId, at, environment, type: 'interaction', name: 'click', value: null }));
      else events.push(anEvent({ componentId, variantId, at, environment, type: 'error', name: 'uncaught', value: null, error }));
    }
    // Bucket bounds exactly, and values in the first and last buckets.
    for (const value of [0, 0.5, 1, 2, 8, 1024, 600_000, 5e9]) events.push(anEvent({ componentId, variantId, at: start, value }));
    for (let i = 0; i < events.length; i += 100) await writer.append(events.slice(i, i + 100));

    const end = new Date(start.getTime() + 3 * HOUR);
    const raw = (await countRawEvents(db().database.sql, { componentId, from: start, to: end })).map((row) => ({ ...row, sum: round(row.sum) }));
    expect(raw.reduce((n, row) => n + row.count, 0)).toBe(events.length);
    expect(await rollups('minutes', componentId, start, end)).toEqual(raw);

    // At 12:40 the complete hours are 10:00 and 11:00; 12:00 is not rolled up yet.
    const now = new Date('2032-02-01T12:40:00Z');
    expect(await maintenance().rollUpHours({ from: new Date(now.getTime() - 3 * HOUR), until: now })).toBe(2);
    const twoHours = new Date(start.getTime() + 2 * HOUR);
    expect(await rollups('hours', componentId, start, end)).toEqual(await rollups('minutes', componentId, start, twoHours));
    expect(await maintenance().lastRolledHour(start)).toEqual(new Date('2032-02-01T11:00:00Z'));

    // A re-run changes nothing.
    const once = await rollups('hours', componentId, start, end);
    await maintenance().rollUpHours({ from: start, until: now });
    expect(await rollups('hours', componentId, start, end)).toEqual(once);

    // Late minutes in a rolled-up hour (and a key it had not seen) are picked up by the next run.
    await writer.append([
      anEvent({ componentId, variantId, at: new Date('2032-02-01T10:59:59Z'), value: 40 }),
      anEvent({ componentId, variantId, at: new Date('2032-02-01T11:30:00Z'), environment: 'dev', type: 'vital', name: 'LCP', value: 900 }),
    ]);
    await maintenance().rollUpHours({ from: start, until: new Date('2032-02-01T13:05:00Z') });
    const final = await rollups('hours', componentId, start, end);
    expect(final).toEqual(await rollups('minutes', componentId, start, end));
    const rawFinal = (await countRawEvents(db().database.sql, { componentId, from: start, to: end })).map((row) => ({ ...row, sum: round(row.sum) }));
    expect(final).toEqual(rawFinal);
    expect(rawFinal.reduce((n, row) => n + row.count, 0)).toBe(events.length + 2);
  });

  it('prunes minute rollups, hourly rollups and error groups before their cutoffs', async () => {
    const { componentId, variantId } = await aComponentWithVariant();
    const writer = createUsageWriter(db().database.sql);
    const error = { errorClass: 'Error', message: 'boom', stackHash: 'deadbeef' };
    await writer.append([
      anEvent({ componentId, variantId, at: new Date('2032-03-01T08:10:00Z') }),
      anEvent({ componentId, variantId, at: new Date('2032-03-01T08:20:00Z'), type: 'error', name: 'sdk', value: null, error }),
      anEvent({ componentId, variantId, at: new Date('2032-03-03T09:10:00Z') }),
    ]);
    await maintenance().rollUpHours({ from: new Date('2032-03-01T00:00:00Z'), until: new Date('2032-03-04T00:00:00Z') });
    await maintenance().pruneRollups({ minutesBefore: new Date('2032-03-02T00:00:00Z'), hoursBefore: new Date('2032-03-01T08:00:00Z') });
    const counts = async () =>
      (
        await rows<{ minutes: number; hours: number; groups: number }>(
          `SELECT (SELECT count(*)::int FROM "usage".minutes WHERE component_id = $1) AS minutes,
                  (SELECT count(*)::int FROM "usage".hours WHERE component_id = $1) AS hours,
                  (SELECT count(*)::int FROM "usage".error_groups WHERE component_id = $1) AS groups`,
          [componentId],
        )
      )[0];
    expect(await counts()).toEqual({ minutes: 1, hours: 3, groups: 1 });
    await maintenance().pruneRollups({ minutesBefore: new Date('2032-03-02T00:00:00Z'), hoursBefore: new Date('2032-03-02T00:00:00Z') });
    expect(await counts()).toEqual({ minutes: 1, hours: 1, groups: 0 });
  });

  it("a day's raw read touches at most two day partitions (EXPLAIN)", async () => {
    const { componentId } = await aComponentWithVariant();
    await maintenance().createPartitions(new Date('2032-04-01T00:00:00Z'), 9);
    const from = new Date('2032-04-05T13:30:00Z');
    const [row] = await rows<Record<string, unknown>>(`EXPLAIN (FORMAT JSON) ${COUNT_RAW_EVENTS_SQL}`, [componentId, from, new Date(from.getTime() + 24 * HOUR)]);
    const relations = new Set<string>();
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(walk);
      else if (node && typeof node === 'object') {
        const name = (node as Record<string, unknown>)['Relation Name'];
        if (typeof name === 'string') relations.add(name);
        Object.values(node).forEach(walk);
      }
    };
    const plan = row!['QUERY PLAN'];
    walk(typeof plan === 'string' ? JSON.parse(plan) : plan);
    expect([...relations].sort()).toEqual(['events_20320405', 'events_20320406']);
  });
});
