import type { Actor } from '../../entities/user.js';
import type { WebhookEndpoint } from '../../entities/webhook.js';
import { normalizeWebhookEventTypes } from '../../rules/webhooks.js';
import { auditedChange } from '../access/audited-change.js';
import { requireFound } from '../access/require-found.js';
import { WEBHOOK_ACCESS, type WebhookDeps } from './webhook-deps.js';

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
  return auditedChange(input, WEBHOOK_ACCESS, deps, (stamp) => {
    const eventTypes =
      input.eventTypes === undefined ? undefined : normalizeWebhookEventTypes(input.eventTypes);
    return requireFound('Webhook endpoint', input.endpointId, (endpointId) =>
      deps.repos.webhookEndpoints.update({
        organizationId: input.organizationId,
        endpointId,
        ...(eventTypes ? { eventTypes } : {}),
        ...(input.enabled === undefined ? {} : { enabled: input.enabled }),
        ...stamp,
      }),
    );
  });
}
