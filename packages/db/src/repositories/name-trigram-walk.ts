import { componentNameKey } from '@cp/domain';
import { Prisma } from '../generated/prisma/client.js';
import type { SqlReader } from '../sql-reader.js';
import type { ComponentSummaryRow } from './mappers.js';

/** Where a name-ordered listing starts: its organization and the keyset cursor, if any. */
export interface NameOrderStart {
  readonly organizationId: string;
  readonly after?: { readonly nameKey: string; readonly id: string };
}

export interface TrigramWalkQuery {
  readonly start: NameOrderStart;
  /** The columns answered (name_key is added). */
  readonly columns: Prisma.Sql;
  /** The rows listed, over the table's columns: organization, cursor, membership. */
  readonly scope: Prisma.Sql;
  /** The full name filter and the conditions beside it, re-checked on every row walked. */
  readonly filter: Prisma.Sql;
  readonly fragment: string;
  readonly limit: number;
  readonly offset: number;
}

/** Rows of the trigram walked before the matches are looked up all at once instead. */
const WALKED_ROWS = 2000;

/** A fragment the walk can serve: it has trigrams. */
export const hasTrigrams = (fragment: string): boolean => [...componentNameKey(fragment)].length >= 3;

/**
 * A page in name order from component_name_trigrams. A name holding the fragment holds
 * each of its trigrams, so the first match after the cursor comes no earlier than the
 * first row of any of them: the walk starts at the latest of those first rows (one
 * index probe per trigram), in that trigram's rows, each re-checked against the whole
 * filter, and stops once the page is full or WALKED_ROWS were read. A fragment whose
 * matches all come late in name order is thereby walked from their start. A trigram
 * with no row after the cursor means no match. Fewer rows than the page means the page
 * is not known to be complete.
 */
export function trigramWalk(sql: SqlReader, { start, columns, scope, filter, fragment, limit, offset }: TrigramWalkQuery): Promise<ComponentSummaryRow[]> {
  const { organizationId, after } = start;
  const afterCursor = after ? Prisma.sql`AND (name_key, component_id) > (${after.nameKey}, ${after.id}::uuid)` : Prisma.empty;
  return sql.rows<ComponentSummaryRow>(
    Prisma.sql`
    WITH firsts AS (
      SELECT trigram, (
        SELECT name_key FROM component_name_trigrams
        WHERE organization_id = ${organizationId}::uuid AND trigram = t.trigram ${afterCursor}
        ORDER BY name_key, component_id
        LIMIT 1) AS first_key
      FROM unnest(name_trigrams(${componentNameKey(fragment)})) AS t(trigram)),
    latest AS (SELECT trigram, first_key FROM firsts ORDER BY first_key DESC NULLS FIRST LIMIT 1)
    SELECT matched.* FROM (
      SELECT name_key, component_id FROM component_name_trigrams
      WHERE organization_id = ${organizationId}::uuid ${afterCursor}
        AND trigram = (SELECT trigram FROM latest) AND name_key >= (SELECT first_key FROM latest)
      ORDER BY name_key, component_id
      LIMIT ${WALKED_ROWS}) AS walked
    CROSS JOIN LATERAL (
      SELECT ${columns}, name_key FROM components
      WHERE id = walked.component_id AND ${scope} ${filter}
      OFFSET 0) AS matched
    ORDER BY walked.name_key, walked.component_id
    LIMIT ${limit} OFFSET ${offset}`,
    { planEachCall: true },
  );
}
