import type { SqlReader } from '../sql-reader.js';

const DAY_MS = 86_400_000;

/** The raw events' partition of a UTC day: `events_20261126`. */
export function partitionName(day: Date): string {
  return `events_${day.toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/** Midnight UTC of the day that holds `at`. */
export const utcDay = (at: Date): Date => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);

export const addDays = (day: Date, days: number): Date => new Date(day.getTime() + days * DAY_MS);

const DUPLICATE_TABLE = '42P07';

/**
 * Creates the daily partitions that hold `days` (each a UTC midnight), skipping those that
 * exist; returns the names it created. Two processes may race to create the same one: the
 * loser's "already exists" is the answer it wanted.
 */
export async function createDailyPartitions(sql: SqlReader, days: readonly Date[]): Promise<string[]> {
  const existing = new Set(
    (
      await sql.rows<{ name: string }>({
        text: `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
               WHERE i.inhparent = 'usage.events'::regclass`,
        values: [],
      })
    ).map((row) => row.name),
  );
  const created: string[] = [];
  for (const day of days) {
    const name = partitionName(day);
    if (existing.has(name)) continue;
    // Names and bounds come from a Date, never from input: safe to splice into DDL.
    const from = day.toISOString();
    const to = addDays(day, 1).toISOString();
    try {
      await sql.rows({
        text: `CREATE TABLE "usage"."${name}" PARTITION OF "usage"."events" FOR VALUES FROM ('${from}') TO ('${to}')`,
        values: [],
      });
      created.push(name);
    } catch (error) {
      if ((error as { code?: string }).code !== DUPLICATE_TABLE) throw error;
    }
  }
  return created;
}
