import type { DomainDeps } from '../../ports/deps.js';
import type { WebhookUrlPolicy } from '../../ports/webhook-endpoints.js';
import { invalidInput } from '../../errors/factories.js';
import { normalizeWebhookUrl } from '../../rules/webhooks.js';

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
export const MANAGE_WEBHOOKS = 'manage webhooks';
