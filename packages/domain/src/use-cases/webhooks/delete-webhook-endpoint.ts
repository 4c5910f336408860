import type { Actor } from '../../entities/user.js';
import { auditedChange } from '../access/audited-change.js';
import { requireFound } from '../access/require-found.js';
import { WEBHOOK_ACCESS, type WebhookDeps } from './webhook-deps.js';

/** Deletes an endpoint, its messages and attempts; deliveries still queued for it end without a request. */
export async function deleteWebhookEndpoint(
  input: { actor: Actor; organizationId: string; endpointId: string },
  deps: Omit<WebhookDeps, 'webhookUrls'>,
): Promise<void> {
  await auditedChange(input, WEBHOOK_ACCESS, deps, (stamp) =>
    requireFound('Webhook endpoint', input.endpointId, (endpointId) =>
      deps.repos.webhookEndpoints.remove({
        organizationId: input.organizationId,
        endpointId,
        ...stamp,
      }),
    ),
  );
}
