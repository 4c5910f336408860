import { randomBytes } from 'node:crypto';
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from '../entities/webhook.js';
import { invalidInput } from '../errors/factories.js';
import { Limits } from './limits.js';

/** Standard Webhooks: `whsec_` + base64 of the key (24 random bytes, as Svix issues them). */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

/** The message id a delivery sends as `webhook-id` (Standard Webhooks `msg_` ids). */
export const newWebhookMessageId = (uuid: string): string => `msg_${uuid.replaceAll('-', '')}`;

/**
 * The URL's form. Whether its host may be reached (https in production, public addresses) is
 * the edge's outbound policy (WebhookUrlPolicy), checked after this.
 */
export function normalizeWebhookUrl(raw: string): string {
  const value = raw.trim();
  if (value.length === 0)
    throw invalidInput(
      'url',
      'give the URL the events are POSTed to, for example https://example.com/webhooks.',
    );
  if (value.length > Limits.webhookUrlMaxLength)
    throw invalidInput('url', `the URL must be at most ${Limits.webhookUrlMaxLength} characters.`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidInput(
      'url',
      'this is not a URL: write it whole, for example https://example.com/webhooks.',
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw invalidInput('url', 'the URL must start with https://.');
  if (url.username !== '' || url.password !== '')
    throw invalidInput(
      'url',
      'the URL must not carry a user name or password; put a secret in the path instead, or verify the signature.',
    );
  url.hash = '';
  return url.href;
}

/** At least one known event type, each once, in the documented order. */
export function normalizeWebhookEventTypes(raw: readonly string[]): WebhookEventType[] {
  const unknown = raw.filter((type) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type));
  if (unknown.length > 0)
    throw invalidInput(
      'eventTypes',
      `unknown event type ${JSON.stringify(unknown[0])}: choose among ${WEBHOOK_EVENT_TYPES.join(', ')}.`,
    );
  const chosen = WEBHOOK_EVENT_TYPES.filter((type) => raw.includes(type));
  if (chosen.length === 0) throw invalidInput('eventTypes', 'choose at least one event type.');
  return chosen;
}
