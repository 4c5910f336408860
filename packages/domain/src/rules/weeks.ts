const DAY_MS = 24 * 60 * 60 * 1000;
const WEEK_MS = 7 * DAY_MS;

/** Monday 00:00 UTC of the week `date` falls in (ISO weeks, the same for every reader). */
export function startOfUtcWeek(date: Date): Date {
  const midnight = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  // getUTCDay: Sunday 0 … Saturday 6; days since Monday.
  const sinceMonday = (date.getUTCDay() + 6) % 7;
  return new Date(midnight - sinceMonday * DAY_MS);
}

/** The start of each of `count` consecutive weeks from `from` (a Monday 00:00 UTC), oldest first. */
export function weekStarts(from: Date, count: number): Date[] {
  return Array.from({ length: count }, (_, i) => new Date(from.getTime() + i * WEEK_MS));
}

/** The `count` weeks that end with the week of `now` (so far), oldest first. */
export function lastWeeks(now: Date, count: number): Date[] {
  return weekStarts(new Date(startOfUtcWeek(now).getTime() - (count - 1) * WEEK_MS), count);
}
