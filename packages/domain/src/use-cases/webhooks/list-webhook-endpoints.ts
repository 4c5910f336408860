import type { Actor } from '../../entities/user.js';
import type { WebhookEndpoint } from '../../entities/webhook.js';
import type { DomainDeps } from '../../ports/deps.js';
import { requireWebhookManager } from './webhook-deps.js';

/** The organization's endpoints, oldest first (never their secrets). */
export async function listWebhookEndpoints(
  input: { actor: Actor; organizationId: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<WebhookEndpoint[]> {
  await requireWebhookManager(input, deps);
  return deps.repos.webhookEndpoints.listForOrganization(input.organizationId);
}
