import type { WebhookEndpoint } from '../../entities/webhook.js';
import type { Actor } from '../../entities/user.js';
import { DomainError, ErrorCode } from '../../errors/domain-error.js';
import { Limits } from '../../rules/limits.js';
import { newWebhookSecret, normalizeWebhookEventTypes } from '../../rules/webhooks.js';
import { auditNote } from '../access/audit-note.js';
import { acceptableWebhookUrl, requireWebhookManager, type WebhookDeps } from './webhook-deps.js';

export interface CreatedWebhookEndpoint {
  readonly endpoint: WebhookEndpoint;
  /** The signing secret (`whsec_…`), shown once. */
  readonly secret: string;
}

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
  await requireWebhookManager(input, deps);
  const eventTypes = normalizeWebhookEventTypes(input.eventTypes);
  const url = await acceptableWebhookUrl(input.url, deps);
  const secret = newWebhookSecret();
  const created = await deps.repos.webhookEndpoints.create(
    {
      id: deps.ids.newId(),
      organizationId: input.organizationId,
      url,
      eventTypes,
      secret,
      enabled: input.enabled,
      createdBy: input.actor.userId,
      createdAt: deps.clock.now(),
    },
    Limits.webhookEndpointsPerOrganization,
    auditNote(input.actor, deps),
  );
  if (created === 'limit-reached') {
    throw new DomainError(
      ErrorCode.LimitReached,
      `The organization already has ${Limits.webhookEndpointsPerOrganization} webhook endpoints: delete one it no longer uses, then add this one.`,
      { limit: Limits.webhookEndpointsPerOrganization },
    );
  }
  return { endpoint: created, secret };
}
