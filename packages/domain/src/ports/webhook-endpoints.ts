import type { AuditNote } from '../entities/audit-event.js';
import type { WebhookAttempt, WebhookEndpoint, WebhookEventType } from '../entities/webhook.js';

export interface NewWebhookEndpoint {
  readonly id: string;
  readonly organizationId: string;
  readonly url: string;
  readonly eventTypes: readonly WebhookEventType[];
  /** rules/webhooks.ts `newWebhookSecret`; returned by no read of this port. */
  readonly secret: string;
  readonly enabled: boolean;
  readonly createdBy: string;
  readonly createdAt: Date;
}

export interface WebhookEndpointChange {
  readonly organizationId: string;
  readonly endpointId: string;
  readonly eventTypes?: readonly WebhookEventType[];
  /** true also clears a disabled notice (the worker's). */
  readonly enabled?: boolean;
  /** A new signing secret (rotation): the old one stops signing at once. */
  readonly secret?: string;
  readonly now: Date;
  readonly audit: AuditNote;
}

/**
 * An organization's webhook endpoints and their deliveries. The events themselves are enqueued by
 * the repositories that write the changes, in the same transaction (packages/db change-events).
 */
export interface WebhookEndpoints {
  /**
   * Atomic: adds the endpoint unless the organization already has `limit`, also under parallel
   * calls. Writes a WebhookEndpointCreated audit row (url, event types; never the secret).
   */
  create(
    endpoint: NewWebhookEndpoint,
    limit: number,
    audit: AuditNote,
  ): Promise<WebhookEndpoint | 'limit-reached'>;
  /** Oldest first. */
  listForOrganization(organizationId: string): Promise<WebhookEndpoint[]>;
  find(organizationId: string, endpointId: string): Promise<WebhookEndpoint | null>;
  /** Applies the change and writes a WebhookEndpointChanged audit row; null when the organization has no such endpoint. */
  update(change: WebhookEndpointChange): Promise<WebhookEndpoint | null>;
  /** Deletes it with its messages and attempts (pending deliveries then find nothing and end); writes WebhookEndpointDeleted. */
  remove(input: {
    organizationId: string;
    endpointId: string;
    now: Date;
    audit: AuditNote;
  }): Promise<boolean>;
  /** The most recent attempts, newest first. */
  recentAttempts(
    organizationId: string,
    endpointId: string,
    limit: number,
  ): Promise<WebhookAttempt[]>;
  /** Enqueues a new delivery of the endpoint's message (same body and webhook-id); false when it has no such message. */
  redeliver(input: {
    organizationId: string;
    endpointId: string;
    messageId: string;
  }): Promise<boolean>;
}

/**
 * Whether events may be sent to a URL: the edge's outbound rule (https in production, public
 * addresses only). Resolves to null when allowed, else the reason, said to the person.
 */
export interface WebhookUrlPolicy {
  check(url: string): Promise<string | null>;
}
