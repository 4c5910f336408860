import type { Actor } from '../../entities/user.js';
import type { WebhookEndpoint } from '../../entities/webhook.js';
import type { DomainDeps } from '../../ports/deps.js';
import { Permission } from '../../rules/roles.js';
import { requirePermission } from '../access/require-permission.js';
import { MANAGE_WEBHOOKS } from './webhook-deps.js';

/** The organization's endpoints, oldest first (never their secrets). */
export async function listWebhookEndpoints(
  input: { actor: Actor; organizationId: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<WebhookEndpoint[]> {
  await requirePermission(
    input.actor,
    input.organizationId,
    Permission.ManageSetup,
    MANAGE_WEBHOOKS,
    deps,
  );
  return deps.repos.webhookEndpoints.listForOrganization(input.organizationId);
}
