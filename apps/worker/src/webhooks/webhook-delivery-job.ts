import { randomUUID } from 'node:crypto';
import { Queue, type WebhookDeliveryStore } from '@cp/db';
import { checkOutboundUrl, type OutboundRule } from '@cp/http-runtime';
import { defineJob, type JobDefinition, type QueuePolicy } from '../jobs/job-definition.js';
import { postWebhook, type PostOutcome } from './post-webhook.js';
import { signWebhook } from './sign.js';

/**
 * Retries over about a day: the n-th retry waits 60 s × 2^(n-1), and pg-boss adds up to as much
 * again at random, so the 10th and last retry comes 17 to 34 hours after the first attempt
 * (docs/webhooks.md, "Retries"). A worker that dies mid-attempt: the attempt expires after
 * 5 minutes and is retried.
 */
export const WEBHOOK_DELIVERY_POLICY: QueuePolicy = {
  retryLimit: 10,
  retryDelay: 60,
  retryBackoff: true,
  expireInSeconds: 300,
};

export interface WebhookDeliveryDeps {
  readonly deliveries: WebhookDeliveryStore;
  readonly outbound: OutboundRule;
  readonly clock: { now(): Date };
  /** One POST's deadline (default 10 s). */
  readonly timeoutMs?: number;
  /** Tests compress the schedule; production uses WEBHOOK_DELIVERY_POLICY. */
  readonly policy?: QueuePolicy;
}

/**
 * One delivery of one message: the URL checked again (https, public addresses) and connected to
 * at the checked address, one signed POST, one attempt row. A failure throws, so pg-boss retries;
 * when the last retry fails the endpoint is disabled with the reason (the dashboard shows it).
 * A message whose endpoint was deleted or disabled is dropped without a request.
 */
export function webhookDeliveryJob(deps: WebhookDeliveryDeps): JobDefinition {
  return defineJob<{ messageId: string }>({
    queue: Queue.WebhookDelivery,
    policy: deps.policy ?? WEBHOOK_DELIVERY_POLICY,
    async handler(job) {
      const message = await deps.deliveries.load(job.data.messageId);
      if (!message || !message.endpoint.enabled) return;
      const { endpoint } = message;
      const started = performance.now();
      const timestamp = Math.floor(deps.clock.now().getTime() / 1000);
      const check = await checkOutboundUrl(endpoint.url, deps.outbound);
      const outcome: PostOutcome = check.ok
        ? await postWebhook({
            url: check.url,
            addresses: check.addresses,
            body: message.body,
            timeoutMs: deps.timeoutMs ?? 10_000,
            headers: {
              'content-type': 'application/json',
              'user-agent': 'component-platform-webhooks/1',
              'webhook-id': message.messageId,
              'webhook-timestamp': String(timestamp),
              'webhook-signature': signWebhook(
                endpoint.secret,
                message.messageId,
                timestamp,
                message.body,
              ),
            },
          })
        : { delivered: false, responseStatus: null, detail: `refused: ${check.reason}` };
      await deps.deliveries.recordAttempt({
        id: randomUUID(),
        messageId: message.messageId,
        endpointId: endpoint.id,
        attempt: job.retryCount + 1,
        delivered: outcome.delivered,
        responseStatus: outcome.responseStatus,
        durationMs: Math.round(performance.now() - started),
        detail: outcome.detail,
        at: deps.clock.now(),
      });
      if (outcome.delivered) return;
      if (job.retryCount >= job.retryLimit) {
        const reason = `The last of ${job.retryLimit + 1} attempts to deliver ${message.messageId} failed: ${outcome.detail ?? 'no detail'}`;
        await deps.deliveries.disableEndpoint(endpoint.id, reason.slice(0, 500), deps.clock.now());
      }
      throw new Error(`webhook delivery failed: ${outcome.detail ?? 'no detail'}`);
    },
  });
}
