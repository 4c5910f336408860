import type { Actor } from '../../entities/user.js';
import type { WebhookAttempt, WebhookEndpoint } from '../../entities/webhook.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Limits } from '../../rules/limits.js';
import { requireFound } from '../access/require-found.js';
import { requireWebhookManager } from './webhook-deps.js';

/** An endpoint with its recent delivery attempts, newest first; another organization's id is "not found". */
export async function getWebhookEndpoint(
  input: { actor: Actor; organizationId: string; endpointId: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<{ endpoint: WebhookEndpoint; attempts: WebhookAttempt[] }> {
  await requireWebhookManager(input, deps);
  const endpoint = await requireFound('Webhook endpoint', input.endpointId, (endpointId) =>
    deps.repos.webhookEndpoints.find(input.organizationId, endpointId),
  );
  const attempts = await deps.repos.webhookEndpoints.recentAttempts(
    input.organizationId,
    endpoint.id,
    Limits.webhookAttemptsShown,
  );
  return { endpoint, attempts };
}
