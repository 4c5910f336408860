import type { Actor } from '../../entities/user.js';
import { newWebhookSecret } from '../../rules/webhooks.js';
import { auditedChange } from '../access/audited-change.js';
import { requireFound } from '../access/require-found.js';
import { WEBHOOK_ACCESS, type WebhookDeps } from './webhook-deps.js';

/** A new signing secret, shown once; deliveries from now on (retries included) are signed with it. */
export async function rotateWebhookSecret(
  input: { actor: Actor; organizationId: string; endpointId: string },
  deps: Omit<WebhookDeps, 'webhookUrls'>,
): Promise<{ secret: string }> {
  return auditedChange(input, WEBHOOK_ACCESS, deps, async (stamp) => {
    const secret = newWebhookSecret();
    await requireFound('Webhook endpoint', input.endpointId, (endpointId) =>
      deps.repos.webhookEndpoints.update({
        organizationId: input.organizationId,
        endpointId,
        secret,
        ...stamp,
      }),
    );
    return { secret };
  });
}
