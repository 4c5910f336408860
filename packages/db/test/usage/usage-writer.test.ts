import { randomUUID } from 'node:crypto';
import { histogramBucket } from '@cp/domain';
import { aComponent, aUsageEvent, aUserWithOrganization } from '../../src/testing/index.js';
import { createUsageWriter } from '../../src/usage/index.js';
import { describeEachBackend } from '../support/backends.js';

const anEvent = aUsageEvent;

describeEachBackend('usage writer', (db) => {
  const rows = <R>(text: string, values: unknown[] = []) => db().database.sql.rows<R>({ text, values });

  async function aComponentWithVariant() {
    const { user, organization } = await aUserWithOrganization(db().repos);
    const component = await aComponent(db().repos, { organizationId: organization.id, createdBy: user.id });
    const variant = (await db().repos.variants.findLatest(component.id))!;
    return { componentId: component.id, variantId: variant.id };
  }

  it('writes raw events, minute rollups and error groups together, creating the day partition it needs', async () => {
    const { componentId, variantId } = await aComponentWithVariant();
    const writer = createUsageWriter(db().database.sql);
    const at = new Date('2031-03-04T10:15:30Z');
    const error = { errorClass: 'TypeError', message: 'x is undefined', stackHash: '0a1b2c3d' };
    await writer.append([
      anEvent({ componentId, variantId, at, value: 3 }),
      anEvent({ componentId, variantId, at: new Date(at.getTime() + 1000), value: 300 }),
      anEvent({ componentId, variantId, at, type: 'error', name: 'uncaught', value: null, error }),
    ]);
    await writer.append([anEvent({ componentId, variantId, at: new Date(at.getTime() + 2000), type: 'error', name: 'uncaught', value: null, error })]);

    const [raw] = await rows<{ count: string }>(`SELECT count(*) AS count FROM "usage"."events" WHERE component_id = $1`, [componentId]);
    expect(Number(raw!.count)).toBe(4);
    const minutes = await rows<{ type: string; count: string; errors: string; sum: number; histogram: number[] | null }>(
      `SELECT type, count, errors, sum, histogram FROM "usage"."minutes" WHERE component_id = $1 ORDER BY type`,
      [componentId],
    );
    expect(minutes.map((m) => [m.type, Number(m.count), Number(m.errors), m.sum])).toEqual([
      ['error', 2, 2, 0],
      ['render', 2, 0, 303],
    ]);
    expect(minutes[0]!.histogram).toBeNull();
    const histogram = minutes[1]!.histogram!;
    expect(histogram[histogramBucket(3)]).toBe(1);
    expect(histogram[histogramBucket(300)]).toBe(1);
    const [group] = await rows<{ count: string; first_seen: Date; last_seen: Date }>(
      `SELECT count, first_seen, last_seen FROM "usage"."error_groups" WHERE component_id = $1`,
      [componentId],
    );
    expect(Number(group!.count)).toBe(2);
    expect(group!.first_seen.toISOString()).toBe(at.toISOString());
    expect(group!.last_seen.toISOString()).toBe('2031-03-04T10:15:32.000Z');
    const partitions = await rows<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'usage.events'::regclass`,
    );
    expect(partitions.map((p) => p.name)).toContain('events_20310304');
  });

  it('keeps every event under concurrent writers to the same keys', async () => {
    const { componentId, variantId } = await aComponentWithVariant();
    const writer = createUsageWriter(db().database.sql);
    const at = new Date('2031-03-05T08:00:00Z');
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        writer.append(Array.from({ length: 10 }, (_, j) => anEvent({ componentId, variantId, at, sequence: i * 10 + j }))),
      ),
    );
    const [minute] = await rows<{ count: string; histogram: number[] }>(
      `SELECT count, histogram FROM "usage"."minutes" WHERE component_id = $1`,
      [componentId],
    );
    expect(Number(minute!.count)).toBe(200);
    expect(minute!.histogram.reduce((a, b) => a + b, 0)).toBe(200);
  });

  it('adds served counts to the minute rollups and skips a deleted component', async () => {
    const { componentId, variantId } = await aComponentWithVariant();
    const writer = createUsageWriter(db().database.sql);
    const minute = new Date('2031-03-05T09:01:00Z');
    await writer.addServed([
      { minute, componentId, environment: 'prod', variantId, count: 5 },
      { minute, componentId, environment: 'prod', variantId, count: 2 },
      { minute, componentId: randomUUID(), environment: 'prod', variantId, count: 9 },
    ]);
    await writer.addServed([{ minute, componentId, environment: 'prod', variantId, count: 1 }]);
    const served = await rows<{ count: string }>(
      `SELECT count FROM "usage"."minutes" WHERE type = 'served' AND variant_id = $1`,
      [variantId],
    );
    expect(served.map((s) => Number(s.count))).toEqual([8]);
  });
});
