import { createUsageMaintenance, createUsageWriter } from '@cp/db';
import { aUsageEvent as anEvent, usageEvents, type TestDatabase } from '@cp/db/testing';
import type { ServedCount, UsageEvent } from '@cp/domain';

/** A usage event as the ingest stores it: a render of 12 ms in prod unless told. */
export const aUsageEvent = (over: Partial<UsageEvent> & Pick<UsageEvent, 'componentId' | 'variantId' | 'at'>): UsageEvent =>
  anEvent({ environment: 'prod', ...over });

export { usageEvents };

/**
 * Records usage as the services do: host pages' events through the ingest's writer, `/consume`
 * responses through the delivery API's, then the hours before `now` rolled up as the worker does.
 */
export async function recordUsage(db: TestDatabase | null, usage: { events: readonly UsageEvent[]; served?: readonly ServedCount[]; now: Date }): Promise<void> {
  if (db === null) throw new Error("recordUsage needs the stack's own database");
  const writer = createUsageWriter(db.database.sql);
  await writer.append(usage.events);
  await writer.addServed(usage.served ?? []);
  const times = [...usage.events.map((event) => event.at), ...(usage.served ?? []).map((count) => count.minute)].map((at) => at.getTime());
  if (times.length === 0) return;
  // The worker's rollup (its jobs do not run in these tests): the complete hours, and the days that hold them.
  const firstHour = Math.floor(Math.min(...times) / 3_600_000) * 3_600_000;
  await createUsageMaintenance(db.database.sql).rollUpHours({ from: new Date(firstHour), until: usage.now });
}
