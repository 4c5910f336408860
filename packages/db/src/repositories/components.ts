import {
  AuditKind,
  componentNameKey,
  DomainError,
  ErrorCode,
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
import { createComponentListings } from './component-listings.js';
import { toComponent, type ComponentRow } from './mappers.js';

/** Columns aliased to the model's field names, so raw rows map like model rows. */
const COLUMNS = Prisma.sql`id, organization_id AS "organizationId", name, name_key AS "nameKey", description, tags,
  variants_count AS "variantsCount", created_at AS "createdAt", updated_at AS "updatedAt"`;

/** Reads written in SQL go through `sql` (the driver itself, see sql-reader.ts); the rest through Prisma. */
export function createComponents(prisma: PrismaClient, sql: SqlReader, jobs: JobSender): Components {
  return {
    ...createComponentListings(sql),

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
            note: audit,
            organizationId: updated.organizationId,
            kind: AuditKind.TagsChanged,
            componentId: id,
            details: { before, after },
            createdAt: now,
          });
          await enqueueWebhookEvents(tx, jobs, {
            type: WebhookEventType.TagsChanged,
            organizationId: updated.organizationId,
            componentId: id,
            note: audit,
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
