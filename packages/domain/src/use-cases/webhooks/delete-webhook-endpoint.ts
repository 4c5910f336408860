import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import { isUuid } from '../../rules/ids.js';
import { auditNote } from '../access/audit-note.js';
import { requireWebhookManager, type WebhookDeps } from './webhook-deps.js';

/** Deletes an endpoint, its messages and attempts; deliveries still queued for it end without a request. */
export async function deleteWebhookEndpoint(
  input: { actor: Actor; organizationId: string; endpointId: string },
  deps: Omit<WebhookDeps, 'webhookUrls'>,
): Promise<void> {
  await requireWebhookManager(input, deps);
  const removed =
    isUuid(input.endpointId) &&
    (await deps.repos.webhookEndpoints.remove({
      organizationId: input.organizationId,
      endpointId: input.endpointId,
      now: deps.clock.now(),
      audit: auditNote(input.actor, deps),
    }));
  if (!removed) throw notFound('Webhook endpoint', input.endpointId);
}
