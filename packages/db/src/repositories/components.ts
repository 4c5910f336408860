import {
  AuditKind,
  componentNameKey,
  DomainError,
  ErrorCode,
  invalidInput,
  isUuid,
  type Components,
  type TagEdit,
  WebhookEventType,
} from '@cp/domain';
import { Prisma, type PrismaClient } from '../generated/prisma/client.js';
import type { SqlReader } from '../sql-reader.js';
import type { JobSender } from '../jobs/job-sender.js';
import { recordAudit } from './audit-record.js';
import { enqueueWebhookEvents } from './webhook-events.js';
import { toComponent, toComponentSummary, type ComponentRow, type ComponentSummaryRow } from './mappers.js';

/** Columns aliased to the model's field names, so raw rows map like model rows. */
const COLUMNS = Prisma.sql`id, organization_id AS "organizationId", name, name_key AS "nameKey", description, tags,
  variants_count AS "variantsCount", created_at AS "createdAt", updated_at AS "updatedAt"`;

/**
 * What a listing shows. Every column left out is work saved on both sides, per row:
 * on a page the full COLUMNS cost measurably more server CPU than these (timestamps
 * are the dearest to decode; bench/mcp/statement-cost.ts, bench/README.md).
 */
const SUMMARY_COLUMNS = Prisma.sql`id, name, description, tags, variants_count AS "variantsCount", updated_at AS "updatedAt"`;

/** Reads written in SQL go through `sql` (the driver itself, see sql-reader.ts); the rest through Prisma. */
export function createComponents(prisma: PrismaClient, sql: SqlReader, jobs: JobSender): Components {
  return {
    async findById(id) {
      if (!isUuid(id)) return null;
      const row = await prisma.component.findUnique({ where: { id } });
      return row && toComponent(row);
    },

    async findForMember(id, userId) {
      if (!isUuid(id) || !isUuid(userId)) return null;
      const [row] = await sql.rows<ComponentRow>(Prisma.sql`
        SELECT ${COLUMNS} FROM components
        WHERE id = ${id}::uuid
          AND EXISTS (SELECT 1 FROM memberships m
                      WHERE m.organization_id = components.organization_id AND m.user_id = ${userId}::uuid)`);
      return row ? toComponent(row) : null;
    },

    async findByName(organizationId, name) {
      if (!isUuid(organizationId)) return null;
      const row = await prisma.component.findUnique({
        where: { organizationId_nameKey: { organizationId, nameKey: componentNameKey(name) } },
      });
      return row && toComponent(row);
    },

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
      // ORDER BY name_key alone is that (name_key, id) order: name_key is unique within
      // an organization, so id never breaks a tie. Written this way the unique index
      // (organization_id, name_key) yields the rows already sorted and the scan stops
      // after LIMIT rows; with ", id" PostgreSQL adds a sort step over the index scan.
      const rows = await sql.rows<ComponentSummaryRow>(
        Prisma.sql`
        SELECT ${SUMMARY_COLUMNS} FROM components
        WHERE organization_id = ${organizationId}::uuid
          ${nameContains ? nameMatches(nameContains) : Prisma.empty}
          ${after ? Prisma.sql`AND (name_key, id) > (${after.nameKey}, ${after.id}::uuid)` : Prisma.empty}
          ${memberId !== undefined ? Prisma.sql`AND EXISTS (SELECT 1 FROM memberships m WHERE m.organization_id = ${organizationId}::uuid AND m.user_id = ${memberId}::uuid)` : Prisma.empty}
        ORDER BY name_key
        LIMIT ${limit}`,
        { planEachCall: Boolean(nameContains) },
      );
      return rows.map(toComponentSummary);
    },

    async listRecentlyUpdated({ organizationId, nameContains, tag, limit, offset }) {
      if (!isUuid(organizationId)) return [];
      const rows = await sql.rows<ComponentSummaryRow>(
        Prisma.sql`
        SELECT ${SUMMARY_COLUMNS} FROM components
        WHERE organization_id = ${organizationId}::uuid
          ${nameContains ? nameMatches(nameContains) : Prisma.empty}
          ${tag !== undefined ? Prisma.sql`AND ${tag} = ANY(tags)` : Prisma.empty}
        ORDER BY updated_at DESC, id
        LIMIT ${limit} OFFSET ${offset}`,
        { planEachCall: Boolean(nameContains) },
      );
      return rows.map(toComponentSummary);
    },

    async editTags(id, edit, { now, maxTags, audit }) {
      if (!isUuid(id)) return null;
      const row = await prisma.$transaction(async (tx) => {
        // The row lock taken here holds until commit: `before` is the list this UPDATE changes.
        const [locked] = await tx.$queryRaw<{ tags: string[] | null }[]>`
          SELECT tags FROM components WHERE id = ${id}::uuid FOR UPDATE`;
        if (!locked) return null;
        const [updated] = await tx.$queryRaw<ComponentRow[]>`
          UPDATE components SET tags = ${newTags(edit)}, updated_at = ${now}
          WHERE id = ${id}::uuid AND cardinality(${newTags(edit)}) <= ${maxTags}
          RETURNING ${COLUMNS}`;
        const before = locked.tags ?? [];
        const after = updated?.tags ?? [];
        if (updated && !sameList(before, after)) {
          await recordAudit(tx, {
            id: audit.eventId,
            organizationId: updated.organizationId,
            actorId: audit.actorId,
            kind: AuditKind.TagsChanged,
            componentId: id,
            details: { before, after },
            createdAt: now,
          });
          await enqueueWebhookEvents(tx, jobs, {
            type: WebhookEventType.TagsChanged,
            organizationId: updated.organizationId,
            componentId: id,
            actorId: audit.actorId,
            occurredAt: now,
            data: { tags: { before, after } },
          });
        }
        return updated ?? null;
      });
      if (row) return toComponent(row);
      const exists = await prisma.component.count({ where: { id } });
      if (exists === 0) return null;
      throw new DomainError(
        ErrorCode.TooManyTags,
        `A component can have at most ${maxTags} tags, and this edit would go over that. Remove some tags first, or add fewer.`,
        { maxTags },
      );
    },
  };
}

const sameList = (a: readonly string[], b: readonly string[]): boolean =>
  a.length === b.length && a.every((item, i) => item === b[i]);

/**
 * The name filter: `fragment` anywhere in the name, case-insensitively, with `%`, `_`
 * and `\` meaning themselves (escaped with LIKE's default escape character, the
 * backslash). A LIKE on name_key is what the trigram index components_name_key_trgm_idx
 * serves; for a fragment too short for trigrams, or one that many names hold, the
 * planner walks the (organization_id, name_key) index in order instead.
 */
function nameMatches(fragment: string): Prisma.Sql {
  const escaped = componentNameKey(fragment).replace(/[\\%_]/g, '\\$&');
  return Prisma.sql`AND name_key LIKE ${`%${escaped}%`}`;
}

/**
 * The new tag list as an SQL expression over the row's current `tags`, so one
 * UPDATE computes it under the row lock: a concurrent edit that committed first
 * is re-read (PostgreSQL re-evaluates the row after waiting), and no tag is lost.
 * `change`: current tags then the added ones, first occurrence kept, in order,
 * minus the removed ones; `set`: the given tags, de-duplicated the same way. The same expression is checked against `maxTags` in
 * the WHERE clause, so an edit that would overflow changes nothing.
 */
function newTags(edit: TagEdit): Prisma.Sql {
  const candidates =
    edit.kind === 'set'
      ? Prisma.sql`${[...edit.tags]}::text[]`
      : Prisma.sql`coalesce(tags, '{}') || ${[...edit.add]}::text[]`;
  const removed = edit.kind === 'set' ? [] : [...edit.remove];
  return Prisma.sql`ARRAY(
    SELECT tag FROM unnest(${candidates}) WITH ORDINALITY AS t(tag, ord)
    WHERE tag <> ALL (${removed}::text[])
    GROUP BY tag
    ORDER BY min(ord)
  )`;
}
