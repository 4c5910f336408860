import type { Actor } from '../../entities/user.js';
import { notFound } from '../../errors/factories.js';
import { isUuid } from '../../rules/ids.js';
import { newWebhookSecret } from '../../rules/webhooks.js';
import { auditNote } from '../access/audit-note.js';
import { requireWebhookManager, type WebhookDeps } from './webhook-deps.js';

/** A new signing secret, shown once; deliveries from now on (retries included) are signed with it. */
export async function rotateWebhookSecret(
  input: { actor: Actor; organizationId: string; endpointId: string },
  deps: Omit<WebhookDeps, 'webhookUrls'>,
): Promise<{ secret: string }> {
  await requireWebhookManager(input, deps);
  const secret = newWebhookSecret();
  const updated = isUuid(input.endpointId)
    ? await deps.repos.webhookEndpoints.update({
        organizationId: input.organizationId,
        endpointId: input.endpointId,
        secret,
        now: deps.clock.now(),
        audit: auditNote(input.actor, deps),
      })
    : null;
  if (!updated) throw notFound('Webhook endpoint', input.endpointId);
  return { secret };
}
