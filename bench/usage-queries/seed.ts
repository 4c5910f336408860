import { emptyHistogram, histogramBucket } from '../../packages/domain/src/index.js';

/*
 * The usage rollups of one organization, written straight into the tables in bulk
 * (generate_series), as the ingest and the worker's hourly rollup would have left them:
 * hourly rows for every complete hour of the window, minute rows for the last 48 hours.
 * Every component gets the same keys every hour (two environments; served, load, render,
 * three interaction names, one error class), which is the most rows a component has:
 * real traffic is skewed, and a quiet component has fewer keys, not more.
 */

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

type Execute = (sql: string, ...values: unknown[]) => Promise<void>;

/** `count` values spread around `medianMs` (a few buckets either side), as a histogram literal. */
function histogram(count: number, medianMs: number): string {
  const weights = [0.05, 0.15, 0.3, 0.3, 0.15, 0.05];
  const center = histogramBucket(medianMs);
  const h = emptyHistogram();
  let left = count;
  weights.forEach((w, i) => {
    const n = i === weights.length - 1 ? left : Math.round(count * w);
    h[center - 2 + i]! += n;
    left -= n;
  });
  return `{${h.join(',')}}`;
}

/** One hour of a component: what a share of 100 events/s spread over 1,000 components makes (360). */
const HOUR_KEYS: [string, string, string, number, string | null, number][] = [
  // environment, type, name, count, histogram, sum (ms)
  ['prod', 'served', 'consume', 100, null, 0],
  ['prod', 'load', 'consume', 80, histogram(80, 90), 80 * 90],
  ['prod', 'render', 'ready', 78, histogram(78, 25), 78 * 25],
  ['prod', 'error', 'uncaught', 1, null, 0],
  ['prod', 'interaction', 'click', 10, null, 0],
  ['prod', 'interaction', 'submit', 5, null, 0],
  ['prod', 'interaction', 'open', 6, null, 0],
  ['staging', 'served', 'consume', 30, null, 0],
  ['staging', 'load', 'consume', 22, histogram(22, 90), 22 * 90],
  ['staging', 'render', 'ready', 21, histogram(21, 25), 21 * 25],
  ['staging', 'error', 'uncaught', 1, null, 0],
  ['staging', 'interaction', 'click', 3, null, 0],
  ['staging', 'interaction', 'submit', 2, null, 0],
  ['staging', 'interaction', 'open', 1, null, 0],
];

/** One minute: the keys present in it (`every`: one minute in that many, shifted by `offset`). */
const MINUTE_KEYS: [string, string, string, number, string | null, number, number][] = [
  // environment, type, name, count, histogram, every, offset
  ['prod', 'served', 'consume', 2, null, 1, 0],
  ['prod', 'load', 'consume', 2, histogram(2, 90), 1, 0],
  ['prod', 'render', 'ready', 2, histogram(2, 25), 1, 0],
  ['prod', 'interaction', 'click', 1, null, 3, 0],
  ['prod', 'interaction', 'submit', 1, null, 3, 1],
  ['prod', 'interaction', 'open', 1, null, 3, 2],
  ['prod', 'error', 'uncaught', 1, null, 10, 0],
  ['staging', 'served', 'consume', 1, null, 3, 0],
  ['staging', 'load', 'consume', 1, histogram(1, 90), 3, 0],
  ['staging', 'render', 'ready', 1, histogram(1, 25), 3, 0],
];

const values = <T extends unknown[]>(rows: T[]): string =>
  rows.map((row) => `(${row.map((v) => (v === null ? 'NULL::text' : typeof v === 'string' ? `'${v}'` : String(v))).join(', ')})`).join(',\n');

export interface SeededComponent {
  readonly id: string;
  readonly v1: string;
  readonly v2: string;
}

export interface UsageSeed {
  readonly now: Date;
  readonly days: number;
  /** When v2 replaced v1 in each environment. */
  readonly releases: { readonly prod: Date; readonly staging: Date };
}

/**
 * Hourly rows for `days` days up to the last complete hour, minute rows for the 48 hours up
 * to `now`; v1 before the environment's release, v2 after it. One component in twenty
 * fails more with v2 in prod (its error rate rises with the release). Rows are written in
 * time order, a day of hours or an hour of minutes at a time for every component, as the
 * worker and the ingest write them: a component's rows lie on as many pages as they would.
 */
export async function seedUsage(execute: Execute, components: readonly SeededComponent[], seed: UsageSeed): Promise<void> {
  const lastHour = Math.floor(seed.now.getTime() / HOUR_MS) * HOUR_MS;
  const hoursFrom = lastHour - seed.days * 24 * HOUR_MS;
  const minutesFrom = Math.floor(seed.now.getTime() / MINUTE_MS) * MINUTE_MS - 48 * HOUR_MS;
  const arrays = [components.map((c) => c.id), components.map((c) => c.v1), components.map((c) => c.v2), components.map((_, i) => i)];
  for (let day = 0; day < seed.days; day += 1) {
    await execute(
      `INSERT INTO "usage"."hours" ("component_id", "hour", "environment", "variant_id", "type", "name", "count", "errors", "sum", "histogram")
       SELECT c.id, h.hour, k.env, v.variant, k.type, k.name, v.count, CASE WHEN k.type = 'error' THEN v.count ELSE 0 END, k.sum, k.histogram::int4[]
       FROM generate_series($5::timestamptz, $5::timestamptz + interval '23 hours', interval '1 hour') AS h(hour)
       CROSS JOIN unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::int[]) AS c(id, v1, v2, n)
       CROSS JOIN (VALUES ${values(HOUR_KEYS)}) AS k(env, type, name, count, histogram, sum)
       CROSS JOIN LATERAL (SELECT CASE WHEN h.hour >= (CASE k.env WHEN 'prod' THEN $6::timestamptz ELSE $7::timestamptz END) THEN c.v2 ELSE c.v1 END AS variant) AS r
       CROSS JOIN LATERAL (SELECT r.variant,
         CASE WHEN k.type = 'error' AND k.env = 'prod' AND r.variant = c.v2 AND c.n % 20 = 0 THEN 12 ELSE k.count END AS count) AS v`,
      ...arrays,
      new Date(hoursFrom + day * 24 * HOUR_MS),
      seed.releases.prod,
      seed.releases.staging,
    );
    if (day % 5 === 4) process.stderr.write(`  ${day + 1} days of hours\n`);
  }
  // The daily totals the worker keeps from the hours (UsageMaintenance.rollUpHours), a day at a time as it writes them.
  await execute(
    `INSERT INTO "usage"."days" ("component_id", "day", "environment", "variant_id", "type", "count", "errors")
     SELECT "component_id", date_bin('1 day', "hour", TIMESTAMPTZ '2000-01-01T00:00:00Z'), "environment", "variant_id", "type", sum("count"), sum("errors")
     FROM "usage"."hours" GROUP BY 1, 2, 3, 4, 5 ORDER BY 2, 1, 3, 4, 5`,
  );
  for (let hour = 0; hour <= 48; hour += 1) {
    await execute(
      `INSERT INTO "usage"."minutes" ("component_id", "minute", "environment", "variant_id", "type", "name", "count", "errors", "sum", "histogram")
       SELECT c.id, m.minute, k.env, c.v2, k.type, k.name, k.count, CASE WHEN k.type = 'error' THEN k.count ELSE 0 END, 0, k.histogram::int4[]
       FROM generate_series(0, 59) AS m0(i)
       CROSS JOIN LATERAL (SELECT $5::timestamptz + m0.i * interval '1 minute' AS minute) AS m
       CROSS JOIN unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::int[]) AS c(id, v1, v2, n)
       CROSS JOIN (VALUES ${values(MINUTE_KEYS)}) AS k(env, type, name, count, histogram, every, "offset")
       WHERE (m0.i + k."offset") % k.every = 0 AND m.minute <= $6::timestamptz`,
      ...arrays,
      new Date(minutesFrom + hour * HOUR_MS),
      seed.now,
    );
    if (hour % 12 === 11) process.stderr.write(`  ${hour + 1} hours of minutes\n`);
  }
  await execute(
    `INSERT INTO "usage"."error_groups" ("component_id", "environment", "variant_id", "stack_hash", "error_class", "message", "count", "first_seen", "last_seen")
     SELECT c.id, g.env, CASE g.v WHEN 1 THEN c.v1 ELSE c.v2 END, g.hash, g.class, g.message, g.count, $5::timestamptz - g.age * interval '1 day', $5::timestamptz
     FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::int[]) AS c(id, v1, v2, n)
     CROSS JOIN (VALUES ('prod', 1, '0a1b2c3d', 'TypeError', 'Cannot read properties of undefined', 200, 20),
                        ('prod', 2, '0a1b2c3d', 'TypeError', 'Cannot read properties of undefined', 150, 10),
                        ('prod', 2, '4e5f6a7b', 'RangeError', 'Invalid time value', 40, 3),
                        ('staging', 2, '0a1b2c3d', 'TypeError', 'Cannot read properties of undefined', 60, 12)) AS g(env, v, hash, class, message, count, age)`,
    ...arrays,
    seed.now,
  );
}
