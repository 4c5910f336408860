import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { requireFound } from '../access/require-found.js';
import { requireWebhookManager } from './webhook-deps.js';

/**
 * Enqueues a new delivery of a message the endpoint was sent: the same body and `webhook-id`
 * (receivers deduplicate on it), a new timestamp and signature, the full retry schedule.
 */
export async function redeliverWebhookMessage(
  input: { actor: Actor; organizationId: string; endpointId: string; messageId: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<void> {
  await requireWebhookManager(input, deps);
  const endpoint = await requireFound('Webhook endpoint', input.endpointId, (endpointId) =>
    deps.repos.webhookEndpoints.find(input.organizationId, endpointId),
  );
  if (!endpoint.enabled)
    throw new DomainError(
      ErrorCode.Conflict,
      'This endpoint is disabled, so nothing is delivered to it: enable it first, then redeliver.',
      {},
    );
  const queued = await deps.repos.webhookEndpoints.redeliver({
    organizationId: input.organizationId,
    endpointId: endpoint.id,
    messageId: input.messageId,
  });
  if (!queued) throw notFound('Webhook message', input.messageId);
}
