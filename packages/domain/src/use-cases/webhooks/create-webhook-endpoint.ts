import type { WebhookEndpoint } from '../../entities/webhook.js';
import type { Actor } from '../../entities/user.js';
import { Limits } from '../../rules/limits.js';
import { newWebhookSecret, normalizeWebhookEventTypes } from '../../rules/webhooks.js';
import { auditedChange } from '../access/audited-change.js';
import { createWithinLimit, type OrganizationLimit } from '../access/create-within-limit.js';
import { acceptableWebhookUrl, WEBHOOK_ACCESS, type WebhookDeps } from './webhook-deps.js';

export interface CreatedWebhookEndpoint {
  readonly endpoint: WebhookEndpoint;
  /** The signing secret (`whsec_…`), shown once. */
  readonly secret: string;
}

const WEBHOOK_ENDPOINTS: OrganizationLimit = {
  limit: Limits.webhookEndpointsPerOrganization,
  things: 'webhook endpoints',
  advice: 'delete one it no longer uses, then add this one',
};

/**
 * A new endpoint (Permission.ManageSetup): URL form and outbound rule, at least one event type,
 * and the per-organization limit, which the repository checks atomically.
 */
export async function createWebhookEndpoint(
  input: {
    actor: Actor;
    organizationId: string;
    url: string;
    eventTypes: readonly string[];
    enabled: boolean;
  },
  deps: WebhookDeps,
): Promise<CreatedWebhookEndpoint> {
  return auditedChange(input, WEBHOOK_ACCESS, deps, async (stamp) => {
    const eventTypes = normalizeWebhookEventTypes(input.eventTypes);
    const url = await acceptableWebhookUrl(input.url, deps);
    const secret = newWebhookSecret();
    const endpoint = await createWithinLimit(WEBHOOK_ENDPOINTS, (limit) =>
      deps.repos.webhookEndpoints.create(
        {
          id: deps.ids.newId(),
          organizationId: input.organizationId,
          url,
          eventTypes,
          secret,
          enabled: input.enabled,
          createdBy: input.actor.userId,
          createdAt: stamp.now,
        },
        limit,
        stamp.audit,
      ),
    );
    return { endpoint, secret };
  });
}
