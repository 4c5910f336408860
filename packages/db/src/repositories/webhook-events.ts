import { randomUUID } from 'node:crypto';
import { newWebhookMessageId, type AuditNote, type WebhookEventType } from '@cp/domain';
import type { Prisma } from '../generated/prisma/client.js';
import type { JobSender } from '../jobs/job-sender.js';
import { Queue } from '../jobs/queues.js';

/** A committed-with-the-transaction change, as a webhook event (payloads: docs/webhooks.md). */
export interface ChangeEvent {
  readonly type: WebhookEventType;
  readonly organizationId: string;
  readonly componentId: string;
  /** The change's audit note: who made it, and through which credential (`actor.via`). */
  readonly note: Pick<AuditNote, 'actorId' | 'via'>;
  readonly occurredAt: Date;
  /** What the event adds to `organization`, `component` and `actor` (variant, environment, tags...). */
  readonly data: Record<string, unknown>;
}

/**
 * Next to recordAudit, inside the change's transaction: for each enabled endpoint of the
 * organization subscribed to the event, one message (the body every attempt sends) and one
 * delivery job. The change, its messages and their jobs commit or roll back together.
 * Without a subscribed endpoint this is one indexed read.
 */
export async function enqueueWebhookEvents(
  tx: Prisma.TransactionClient,
  jobs: JobSender,
  ...events: ChangeEvent[]
): Promise<void> {
  const first = events[0];
  if (!first) return;
  const types = events.map((event) => event.type);
  const endpoints = await tx.$queryRaw<{ id: string; event_types: string[] }[]>`
    SELECT id, event_types FROM webhook_endpoints
    WHERE organization_id = ${first.organizationId}::uuid AND enabled AND event_types && ${types}::text[]
    ORDER BY created_at, id`;
  if (endpoints.length === 0) return;
  const [context] = await tx.$queryRaw<
    { organization: string; email: string | null; component: string | null }[]
  >`
    SELECT o.name AS organization,
      (SELECT email FROM users WHERE id = ${first.note.actorId}::uuid) AS email,
      (SELECT name FROM components WHERE id = ${first.componentId}::uuid) AS component
    FROM organizations o WHERE o.id = ${first.organizationId}::uuid`;
  if (!context) return;
  for (const event of events) {
    const body = JSON.stringify({
      type: event.type,
      timestamp: event.occurredAt.toISOString(),
      data: {
        organization: { id: event.organizationId, name: context.organization },
        component: { id: event.componentId, name: context.component },
        ...event.data,
        actor: { id: event.note.actorId, email: context.email, via: event.note.via ?? null },
      },
    });
    for (const endpoint of endpoints.filter((e) => e.event_types.includes(event.type))) {
      const messageId = newWebhookMessageId(randomUUID());
      await tx.webhookMessage.create({
        data: {
          id: messageId,
          endpointId: endpoint.id,
          eventType: event.type,
          body,
          createdAt: event.occurredAt,
        },
      });
      await jobs.send(tx, Queue.WebhookDelivery, { messageId });
    }
  }
}
