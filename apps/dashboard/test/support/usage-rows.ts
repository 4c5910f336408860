import { createUsageWriter } from '@cp/db';
import type { TestDatabase } from '@cp/db/testing';
import type { ServedCount, UsageEvent } from '@cp/domain';

/** A usage event as the ingest stores it: a render of 12 ms in prod unless told. */
export const aUsageEvent = (over: Partial<UsageEvent> & Pick<UsageEvent, 'componentId' | 'variantId' | 'at'>): UsageEvent => ({
  environment: 'prod',
  type: 'render',
  name: 'ready',
  value: 12,
  cacheHit: null,
  isolation: 'iframe',
  sdkVersion: '1.1.0',
  hostName: 'shop.example',
  sessionId: 'AAAAAAAAAAAAAAAAAAAAAA',
  sequence: 0,
  sampleRate: 1,
  browser: 'chrome',
  error: null,
  ...over,
});

/** `count` copies of an event, a second apart. */
export const usageEvents = (count: number, event: UsageEvent): UsageEvent[] =>
  Array.from({ length: count }, (_, i) => ({ ...event, at: new Date(event.at.getTime() + i * 1000), sequence: i }));

/**
 * The complete hours before `until`, summed from the minute rollups into the hourly ones: what the
 * worker's hourly rollup (`UsageMaintenance.rollUpHours`) writes, done here in one statement since the
 * worker does not run in these tests. The usage reader takes whole hours from these rows only.
 */
const ROLL_UP_HOURS = `
  INSERT INTO "usage"."hours" ("component_id", "hour", "environment", "variant_id", "type", "name", "count", "errors", "sum", "histogram")
  SELECT "component_id", to_timestamp(floor(extract(epoch FROM "minute") / 3600) * 3600), "environment", "variant_id", "type", "name",
    sum("count"), sum("errors"), sum("sum"), "usage"."histogram_sum"("histogram")
  FROM "usage"."minutes" WHERE "minute" < $1
  GROUP BY 1, 2, 3, 4, 5, 6
  ON CONFLICT ("component_id", "hour", "environment", "variant_id", "type", "name") DO UPDATE SET
    "count" = excluded."count", "errors" = excluded."errors", "sum" = excluded."sum", "histogram" = excluded."histogram"`;

/**
 * Records usage as the services do: host pages' events through the ingest's writer, `/consume`
 * responses through the delivery API's, then the hours before `now` rolled up as the worker does.
 */
export async function recordUsage(db: TestDatabase | null, usage: { events: readonly UsageEvent[]; served?: readonly ServedCount[]; now: Date }): Promise<void> {
  if (db === null) throw new Error("recordUsage needs the stack's own database");
  const writer = createUsageWriter(db.database.sql);
  await writer.append(usage.events);
  await writer.addServed(usage.served ?? []);
  const hour = new Date(Math.floor(usage.now.getTime() / 3_600_000) * 3_600_000);
  await db.database.sql.rows({ text: ROLL_UP_HOURS, values: [hour] });
}
