import {
  AuditKind,
  isUuid,
  type WebhookAttempt,
  type WebhookEndpoint,
  type WebhookEndpoints,
  type WebhookEventType,
} from '@cp/domain';
import type { Prisma, PrismaClient } from '../generated/prisma/client.js';
import type { JobSender } from '../jobs/job-sender.js';
import { Queue } from '../jobs/queues.js';
import { recordAudit } from './audit-record.js';

type EndpointRow = Prisma.WebhookEndpointGetPayload<object>;

const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  organizationId: row.organizationId,
  url: row.url,
  eventTypes: row.eventTypes as WebhookEventType[],
  enabled: row.enabled,
  disabled:
    row.disabledReason !== null && row.disabledAt !== null
      ? { reason: row.disabledReason, at: row.disabledAt }
      : null,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export function createWebhookEndpoints(prisma: PrismaClient, jobs: JobSender): WebhookEndpoints {
  return {
    async create(endpoint, limit, audit) {
      return prisma.$transaction(async (tx) => {
        // The organization's row lock queues parallel creations, so each counts the endpoints the previous one added.
        await tx.$queryRaw`SELECT 1 FROM "organizations" WHERE "id" = ${endpoint.organizationId}::uuid FOR UPDATE`;
        if (
          (await tx.webhookEndpoint.count({
            where: { organizationId: endpoint.organizationId },
          })) >= limit
        )
          return 'limit-reached' as const;
        const row = await tx.webhookEndpoint.create({
          data: {
            ...endpoint,
            eventTypes: [...endpoint.eventTypes],
            updatedAt: endpoint.createdAt,
          },
        });
        await recordAudit(tx, {
          note: audit,
          organizationId: endpoint.organizationId,
          kind: AuditKind.WebhookEndpointCreated,
          details: {
            endpointId: endpoint.id,
            url: endpoint.url,
            eventTypes: [...endpoint.eventTypes],
            enabled: endpoint.enabled,
          },
          createdAt: endpoint.createdAt,
        });
        return toEndpoint(row);
      });
    },

    async listForOrganization(organizationId) {
      if (!isUuid(organizationId)) return [];
      const rows = await prisma.webhookEndpoint.findMany({
        where: { organizationId },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      });
      return rows.map(toEndpoint);
    },

    async find(organizationId, endpointId) {
      if (!isUuid(organizationId) || !isUuid(endpointId)) return null;
      const row = await prisma.webhookEndpoint.findFirst({
        where: { id: endpointId, organizationId },
      });
      return row && toEndpoint(row);
    },

    async update({ organizationId, endpointId, eventTypes, enabled, secret, now, audit }) {
      if (!isUuid(organizationId) || !isUuid(endpointId)) return null;
      return prisma.$transaction(async (tx) => {
        const [before] = await tx.$queryRaw<{ url: string; event_types: string[] }[]>`
          SELECT url, event_types FROM webhook_endpoints WHERE id = ${endpointId}::uuid AND organization_id = ${organizationId}::uuid FOR UPDATE`;
        if (!before) return null;
        const row = await tx.webhookEndpoint.update({
          where: { id: endpointId },
          data: {
            ...(eventTypes ? { eventTypes: [...eventTypes] } : {}),
            ...(enabled === undefined
              ? {}
              : { enabled, ...(enabled ? { disabledReason: null, disabledAt: null } : {}) }),
            ...(secret ? { secret } : {}),
            updatedAt: now,
          },
        });
        await recordAudit(tx, {
          note: audit,
          organizationId,
          kind: AuditKind.WebhookEndpointChanged,
          details: {
            endpointId,
            url: before.url,
            ...(eventTypes
              ? { eventTypesBefore: before.event_types, eventTypesAfter: [...eventTypes] }
              : {}),
            ...(enabled === undefined ? {} : { enabled }),
            ...(secret ? { secretRotated: true } : {}),
          },
          createdAt: now,
        });
        return toEndpoint(row);
      });
    },

    async remove({ organizationId, endpointId, now, audit }) {
      if (!isUuid(organizationId) || !isUuid(endpointId)) return false;
      return prisma.$transaction(async (tx) => {
        const [removed] = await tx.$queryRaw<{ url: string }[]>`
          DELETE FROM webhook_endpoints WHERE id = ${endpointId}::uuid AND organization_id = ${organizationId}::uuid RETURNING url`;
        if (!removed) return false;
        await recordAudit(tx, {
          note: audit,
          organizationId,
          kind: AuditKind.WebhookEndpointDeleted,
          details: { endpointId, url: removed.url },
          createdAt: now,
        });
        return true;
      });
    },

    async recentAttempts(organizationId, endpointId, limit) {
      if (!isUuid(organizationId) || !isUuid(endpointId)) return [];
      const rows = await prisma.$queryRaw<
        {
          message_id: string;
          event_type: string;
          attempt: number;
          delivered: boolean;
          response_status: number | null;
          duration_ms: number;
          detail: string | null;
          created_at: Date;
        }[]
      >`
        SELECT a.message_id, m.event_type, a.attempt, a.delivered, a.response_status, a.duration_ms, a.detail, a.created_at
        FROM webhook_attempts a
        JOIN webhook_messages m ON m.id = a.message_id
        JOIN webhook_endpoints e ON e.id = a.endpoint_id
        WHERE a.endpoint_id = ${endpointId}::uuid AND e.organization_id = ${organizationId}::uuid
        ORDER BY a.created_at DESC, a.id DESC
        LIMIT ${limit}`;
      return rows.map((row): WebhookAttempt => ({
        messageId: row.message_id,
        eventType: row.event_type,
        attempt: row.attempt,
        delivered: row.delivered,
        responseStatus: row.response_status,
        durationMs: row.duration_ms,
        detail: row.detail,
        at: row.created_at,
      }));
    },

    async redeliver({ organizationId, endpointId, messageId }) {
      if (!isUuid(organizationId) || !isUuid(endpointId)) return false;
      return prisma.$transaction(async (tx) => {
        const [message] = await tx.$queryRaw<{ id: string }[]>`
          SELECT m.id FROM webhook_messages m JOIN webhook_endpoints e ON e.id = m.endpoint_id
          WHERE m.id = ${messageId} AND m.endpoint_id = ${endpointId}::uuid AND e.organization_id = ${organizationId}::uuid`;
        if (!message) return false;
        await jobs.send(tx, Queue.WebhookDelivery, { messageId: message.id });
        return true;
      });
    },
  };
}
