import type { Membership } from '../../entities/organization.js';
import type { Actor } from '../../entities/user.js';
import type { DomainDeps } from '../../ports/deps.js';
import type { WebhookUrlPolicy } from '../../ports/webhook-endpoints.js';
import { invalidInput } from '../../errors/factories.js';
import { Permission } from '../../rules/roles.js';
import { normalizeWebhookUrl } from '../../rules/webhooks.js';
import type { ChangeAccess } from '../access/audited-change.js';
import { requirePermission } from '../access/require-permission.js';

/** What the use cases that take a URL need besides the usual: the edge's outbound rule. */
export type WebhookDeps = Pick<DomainDeps, 'repos' | 'clock' | 'ids'> & {
  readonly webhookUrls: WebhookUrlPolicy;
};

/** The URL's form, then the outbound rule (https in production, public addresses only). */
export async function acceptableWebhookUrl(
  raw: string,
  deps: Pick<WebhookDeps, 'webhookUrls'>,
): Promise<string> {
  const url = normalizeWebhookUrl(raw);
  const refusal = await deps.webhookUrls.check(url);
  if (refusal !== null) throw invalidInput('url', refusal);
  return url;
}

/** Webhooks are setup, and their URLs can be internal knowledge: owners and admins only, reading included. */
export const WEBHOOK_ACCESS: ChangeAccess = { permission: Permission.ManageSetup, what: 'manage webhooks' };

/** The actor's membership when it may manage the organization's webhooks (WEBHOOK_ACCESS). */
export const requireWebhookManager = (
  input: { actor: Actor; organizationId: string },
  deps: Pick<DomainDeps, 'repos'>,
): Promise<Membership> =>
  requirePermission(input.actor, input.organizationId, WEBHOOK_ACCESS.permission, WEBHOOK_ACCESS.what, deps);
