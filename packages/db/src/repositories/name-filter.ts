import { componentNameKey } from '@cp/domain';
import { Prisma } from '../generated/prisma/client.js';
import type { SqlReader } from '../sql-reader.js';
import type { ComponentSummaryRow } from './mappers.js';
import { hasTrigrams, trigramWalk, type NameOrderStart } from './name-trigram-walk.js';

/**
 * What a listing shows. Every column left out is work saved on both sides, per row:
 * on a page the full columns cost measurably more server CPU than these (timestamps
 * are the dearest to decode; bench/mcp/statement-cost.ts, bench/README.md).
 */
export const SUMMARY_COLUMNS = Prisma.sql`id, name, description, tags, variants_count AS "variantsCount", updated_at AS "updatedAt"`;

/** A listing's order: over the table's columns, and over SUMMARY_COLUMNS plus name_key (a derived table). */
export interface ListingOrder {
  readonly table: Prisma.Sql;
  readonly summary: Prisma.Sql;
}

export interface FilteredPageQuery {
  /** The rows listed before the name filter: organization, cursor, membership. */
  readonly scope: Prisma.Sql;
  /** Conditions beside the name (the tag), over the table's columns. */
  readonly also: Prisma.Sql;
  readonly fragment: string;
  readonly order: ListingOrder;
  readonly limit: number;
  readonly offset: number;
  /** Set for the name order only: where component_name_trigrams is walked from. */
  readonly nameOrderStart?: NameOrderStart;
}

/** Rows read in the listing's order before the matches are looked up in the name indexes instead. */
const ORDERED_WINDOW = 2000;
/** Matches the planner may expect for them to be looked up at once, without reading the order first. */
const FEW_MATCHES = 500;

/**
 * The name filter: `fragment` anywhere in the name, case-insensitively, with `%`, `_`
 * and `\` meaning themselves (escaped with LIKE's default escape character, the
 * backslash). The trigram index components_name_key_trgm_idx serves that LIKE; a
 * two-character fragment has no trigrams, and the added condition (the same rows) is
 * what components_name_key_bigram_idx serves.
 */
export function nameMatches(fragment: string): Prisma.Sql {
  const key = componentNameKey(fragment);
  const like = nameLike(fragment);
  return [...key].length === 2 ? Prisma.sql`${like} AND name_bigrams(name_key) @> ARRAY[${key}]::text[]` : like;
}

/** The filter alone, for rows already read. */
function nameLike(fragment: string): Prisma.Sql {
  return Prisma.sql`AND name_key LIKE ${`%${componentNameKey(fragment).replace(/[\\%_]/g, '\\$&')}%`}`;
}

/** One character has neither trigrams nor bigrams: no index narrows it down. */
export const isIndexedFragment = (fragment: string): boolean => [...componentNameKey(fragment)].length >= 2;

/**
 * A page of a name-filtered listing, read without walking the whole organization in
 * its order. The planner, left to choose, walks the ordered index when it expects
 * many matches, and assumes they spread evenly over the order: when they all come
 * late, it reads nearly every row before the first one. So:
 * 1. when the planner expects many matches, the first rows in the listing's order: in
 *    name order, for a fragment of three characters or more, the rows of one of its
 *    trigrams (name-trigram-walk.ts); otherwise at most ORDERED_WINDOW rows of the
 *    order. When their matches fill the page, it is the page (the walk stops once they do);
 * 2. otherwise, or when they do not fill it, every match from the name indexes, sorted.
 * Every statement is planned for its values (planEachCall): the best plan depends on the fragment.
 */
export async function filteredPage(sql: SqlReader, query: FilteredPageQuery): Promise<ComponentSummaryRow[]> {
  if (query.offset + query.limit <= ORDERED_WINDOW && (await expectedMatches(sql, query)) > FEW_MATCHES) {
    const { nameOrderStart: start, scope, also, fragment, limit, offset } = query;
    const firstMatches =
      start && hasTrigrams(fragment)
        ? trigramWalk(sql, { start, columns: SUMMARY_COLUMNS, scope, filter: Prisma.sql`${nameLike(fragment)} ${also}`, fragment, limit, offset })
        : sql.rows<ComponentSummaryRow>(orderedWindow(query), { planEachCall: true });
    const rows = await firstMatches;
    if (rows.length === limit) return rows;
  }
  return sql.rows<ComponentSummaryRow>(indexedMatches(query), { planEachCall: true });
}

/** The planner's estimate of the matches (statistics only: nothing is read). */
async function expectedMatches(sql: SqlReader, { scope, also, fragment }: FilteredPageQuery): Promise<number> {
  const [row] = await sql.rows<Record<string, unknown>>(
    Prisma.sql`EXPLAIN (FORMAT JSON) SELECT 1 FROM components WHERE ${scope} ${nameMatches(fragment)} ${also}`,
    { planEachCall: true },
  );
  const [explained] = Object.values(row!)[0] as [{ Plan: { 'Plan Rows': number } }];
  return explained.Plan['Plan Rows'];
}

/** Every match, found by whatever plan is cheapest (no order asked; the CTE keeps the planner from walking the order), sorted. */
function indexedMatches({ scope, also, fragment, order, limit, offset }: FilteredPageQuery): Prisma.Sql {
  return Prisma.sql`
    WITH matched AS MATERIALIZED (
      SELECT ${SUMMARY_COLUMNS}, name_key FROM components
      WHERE ${scope} ${nameMatches(fragment)} ${also})
    SELECT * FROM matched
    ORDER BY ${order.summary}
    LIMIT ${limit} OFFSET ${offset}`;
}

/** The page among the first ORDERED_WINDOW rows in order (the inner LIMIT keeps the filter out of the index walk). */
function orderedWindow({ scope, also, fragment, order, limit, offset }: FilteredPageQuery): Prisma.Sql {
  return Prisma.sql`
    SELECT * FROM (
      SELECT ${SUMMARY_COLUMNS}, name_key FROM components
      WHERE ${scope}
      ORDER BY ${order.table}
      LIMIT ${ORDERED_WINDOW}) AS first_rows
    WHERE true ${nameLike(fragment)} ${also}
    ORDER BY ${order.summary}
    LIMIT ${limit} OFFSET ${offset}`;
}
