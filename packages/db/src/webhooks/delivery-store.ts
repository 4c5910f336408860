import type { WebhookAttempt } from '@cp/domain';
import type { PrismaClient } from '../generated/prisma/client.js';

/** A message with what its delivery needs, the endpoint's secret included (worker only). */
export interface DeliverableMessage {
  readonly messageId: string;
  readonly body: string;
  readonly endpoint: {
    readonly id: string;
    readonly url: string;
    readonly secret: string;
    readonly enabled: boolean;
  };
}

/** An attempt as the worker records it: the endpoint's page joins in the event type. */
export interface WebhookAttemptRecord extends Omit<WebhookAttempt, 'eventType'> {
  readonly id: string;
  readonly endpointId: string;
}

/**
 * What the worker's delivery job reads and writes (apps/worker/src/webhooks). Not a domain port:
 * no use case delivers; the dashboard reads attempts through WebhookEndpoints.
 */
export interface WebhookDeliveryStore {
  /** null when the message is gone (its endpoint was deleted). */
  load(messageId: string): Promise<DeliverableMessage | null>;
  recordAttempt(attempt: WebhookAttemptRecord): Promise<void>;
  /** Disables the endpoint with the reason, unless someone disabled or deleted it meanwhile. */
  disableEndpoint(endpointId: string, reason: string, at: Date): Promise<void>;
}

export function createWebhookDeliveryStore(prisma: PrismaClient): WebhookDeliveryStore {
  return {
    async load(messageId) {
      const row = await prisma.webhookMessage.findUnique({
        where: { id: messageId },
        select: {
          id: true,
          body: true,
          endpoint: { select: { id: true, url: true, secret: true, enabled: true } },
        },
      });
      return row && { messageId: row.id, body: row.body, endpoint: row.endpoint };
    },
    async recordAttempt(attempt) {
      // The message may have been deleted with its endpoint while the POST ran: nothing left to record.
      await prisma.$executeRaw`
        INSERT INTO webhook_attempts (id, message_id, endpoint_id, attempt, delivered, response_status, duration_ms, detail, created_at)
        SELECT ${attempt.id}::uuid, ${attempt.messageId}, ${attempt.endpointId}::uuid, ${attempt.attempt}, ${attempt.delivered},
          ${attempt.responseStatus}::int, ${attempt.durationMs}, ${attempt.detail}, ${attempt.at}
        WHERE EXISTS (SELECT 1 FROM webhook_messages WHERE id = ${attempt.messageId})`;
    },
    async disableEndpoint(endpointId, reason, at) {
      await prisma.webhookEndpoint.updateMany({
        where: { id: endpointId, enabled: true },
        data: { enabled: false, disabledReason: reason, disabledAt: at, updatedAt: at },
      });
    },
  };
}
