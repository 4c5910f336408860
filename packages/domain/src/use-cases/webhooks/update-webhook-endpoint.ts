import type { Actor } from '../../entities/user.js';
import type { WebhookEndpoint } from '../../entities/webhook.js';
import { notFound } from '../../errors/factories.js';
import { isUuid } from '../../rules/ids.js';
import { normalizeWebhookEventTypes } from '../../rules/webhooks.js';
import { auditNote } from '../access/audit-note.js';
import { requireWebhookManager, type WebhookDeps } from './webhook-deps.js';

/** Changes an endpoint's event types and/or enabled state; enabling clears the worker's "disabled" notice. */
export async function updateWebhookEndpoint(
  input: {
    actor: Actor;
    organizationId: string;
    endpointId: string;
    eventTypes?: readonly string[];
    enabled?: boolean;
  },
  deps: Omit<WebhookDeps, 'webhookUrls'>,
): Promise<WebhookEndpoint> {
  await requireWebhookManager(input, deps);
  const eventTypes =
    input.eventTypes === undefined ? undefined : normalizeWebhookEventTypes(input.eventTypes);
  const updated = isUuid(input.endpointId)
    ? await deps.repos.webhookEndpoints.update({
        organizationId: input.organizationId,
        endpointId: input.endpointId,
        ...(eventTypes ? { eventTypes } : {}),
        ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
        now: deps.clock.now(),
        audit: auditNote(input.actor, deps),
      })
    : null;
  if (!updated) throw notFound('Webhook endpoint', input.endpointId);
  return updated;
}
