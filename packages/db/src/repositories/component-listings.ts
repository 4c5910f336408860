import { invalidInput, isUuid, type Components } from '@cp/domain';
import { Prisma } from '../generated/prisma/client.js';
import type { SqlReader } from '../sql-reader.js';
import { toComponentSummary, type ComponentSummaryRow } from './mappers.js';
import type { NameOrderStart } from './name-trigram-walk.js';
import { filteredPage, isIndexedFragment, nameMatches, SUMMARY_COLUMNS, type ListingOrder } from './name-filter.js';

/*
 * ORDER BY name_key alone is the (name_key, id) order: name_key is unique within an
 * organization, so id never breaks a tie. Written this way the unique index
 * (organization_id, name_key) yields the rows already sorted and the scan stops after
 * LIMIT rows; with ", id" PostgreSQL adds a sort step over the index scan.
 */
const BY_NAME: ListingOrder = { table: Prisma.sql`name_key`, summary: Prisma.sql`name_key` };
/** Served by the (organization_id, updated_at DESC, id) index. */
const RECENT_FIRST: ListingOrder = { table: Prisma.sql`updated_at DESC, id`, summary: Prisma.sql`"updatedAt" DESC, id` };

/** The MCP tools' keyset listing and the dashboard's pages (see name-filter.ts for the name filter). */
export function createComponentListings(sql: SqlReader): Pick<Components, 'list' | 'listRecentlyUpdated'> {
  return {
    async list({ organizationId, nameContains, limit, after, memberId }) {
      if (!isUuid(organizationId) || (memberId !== undefined && !isUuid(memberId))) return [];
      if (after && !isUuid(after.id)) {
        throw invalidInput(
          'cursor',
          'this is not a cursor returned by list_components; start again without a cursor.',
        );
      }
      // name_key is lower-cased in JS on write, so lower-casing the fragment the same way
      // makes the match case-insensitive. The row comparison continues strictly after
      // the cursor in the same (name_key, id) order as ORDER BY, so concurrent inserts
      // never make a row repeat or vanish between pages.
      const scope = Prisma.sql`organization_id = ${organizationId}::uuid
        ${after ? Prisma.sql`AND (name_key, id) > (${after.nameKey}, ${after.id}::uuid)` : Prisma.empty}
        ${memberId !== undefined ? Prisma.sql`AND EXISTS (SELECT 1 FROM memberships m WHERE m.organization_id = ${organizationId}::uuid AND m.user_id = ${memberId}::uuid)` : Prisma.empty}`;
      const rows = await listingPage(sql, {
        scope,
        also: Prisma.empty,
        nameContains,
        order: BY_NAME,
        limit,
        offset: 0,
        nameOrderStart: { organizationId, ...(after ? { after } : {}) },
      });
      return rows.map(toComponentSummary);
    },

    async listRecentlyUpdated({ organizationId, nameContains, tag, limit, offset }) {
      if (!isUuid(organizationId)) return [];
      const scope = Prisma.sql`organization_id = ${organizationId}::uuid`;
      const also = tag !== undefined ? Prisma.sql`AND ${tag} = ANY(tags)` : Prisma.empty;
      const rows = await listingPage(sql, { scope, also, nameContains, order: RECENT_FIRST, limit, offset });
      return rows.map(toComponentSummary);
    },
  };
}

interface PageQuery {
  readonly scope: Prisma.Sql;
  readonly also: Prisma.Sql;
  readonly nameContains: string | undefined;
  readonly order: ListingOrder;
  readonly limit: number;
  readonly offset: number;
  readonly nameOrderStart?: NameOrderStart;
}

/**
 * Without a name filter, or with one character (no index narrows it down), one
 * statement in the listing's order. A filtered one is planned for its values
 * (planEachCall): a prepared statement's generic plan would serve every fragment one way.
 */
function listingPage(sql: SqlReader, { nameContains, ...query }: PageQuery): Promise<ComponentSummaryRow[]> {
  if (nameContains && isIndexedFragment(nameContains)) return filteredPage(sql, { ...query, fragment: nameContains });
  const { scope, also, order, limit, offset } = query;
  return sql.rows<ComponentSummaryRow>(
    Prisma.sql`
    SELECT ${SUMMARY_COLUMNS} FROM components
    WHERE ${scope} ${nameContains ? nameMatches(nameContains) : Prisma.empty} ${also}
    ORDER BY ${order.table}
    LIMIT ${limit} ${offset > 0 ? Prisma.sql`OFFSET ${offset}` : Prisma.empty}`,
    { planEachCall: Boolean(nameContains) },
  );
}
