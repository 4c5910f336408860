import type { Actor } from '../../entities/user.js';
import type { WebhookAttempt, WebhookEndpoint } from '../../entities/webhook.js';
import { notFound } from '../../errors/factories.js';
import type { DomainDeps } from '../../ports/deps.js';
import { isUuid } from '../../rules/ids.js';
import { Limits } from '../../rules/limits.js';
import { requireWebhookManager } from './webhook-deps.js';

/** An endpoint with its recent delivery attempts, newest first; another organization's id is "not found". */
export async function getWebhookEndpoint(
  input: { actor: Actor; organizationId: string; endpointId: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<{ endpoint: WebhookEndpoint; attempts: WebhookAttempt[] }> {
  await requireWebhookManager(input, deps);
  const endpoint = isUuid(input.endpointId)
    ? await deps.repos.webhookEndpoints.find(input.organizationId, input.endpointId)
    : null;
  if (!endpoint) throw notFound('Webhook endpoint', input.endpointId);
  const attempts = await deps.repos.webhookEndpoints.recentAttempts(
    input.organizationId,
    endpoint.id,
    Limits.webhookAttemptsShown,
  );
  return { endpoint, attempts };
}
