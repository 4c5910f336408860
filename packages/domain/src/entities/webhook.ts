/** What a webhook endpoint can subscribe to; the payloads: docs/webhooks.md and the delivery API's OpenAPI `webhooks`. */
export const WebhookEventType = {
  ComponentCreated: 'component.created',
  /** A confirmed upload. */
  VariantCreated: 'variant.created',
  /** A publish, a rollback (`data.rollback`) or an approved release request. */
  ReleasePublished: 'release.published',
  TagsChanged: 'component.tags_changed',
  ExperiencePublished: 'experience.published',
  RolloutStarted: 'rollout.started',
  /** A stage change, by a person or by the guard. */
  RolloutAdvanced: 'rollout.advanced',
  /** The candidate was released (rollout over). */
  RolloutPromoted: 'rollout.promoted',
  /** By a person (the kill switch), or because another variant was released meanwhile. */
  RolloutStopped: 'rollout.stopped',
  /** By the guard, with the figures that decided it. */
  RolloutRolledBack: 'rollout.rolled_back',
  /** A component offered as an app in AI assistants, created or changed. */
  AppSaved: 'app.saved',
  AppRemoved: 'app.removed',
} as const;
export type WebhookEventType = (typeof WebhookEventType)[keyof typeof WebhookEventType];
export const WEBHOOK_EVENT_TYPES: readonly WebhookEventType[] = Object.values(WebhookEventType);

/** Where an organization's events are POSTed, signed with its secret (Standard Webhooks). */
export interface WebhookEndpoint {
  readonly id: string;
  readonly organizationId: string;
  readonly url: string;
  readonly eventTypes: readonly WebhookEventType[];
  readonly enabled: boolean;
  /** Why and when the worker disabled it (its last retry failed); null once re-enabled. */
  readonly disabled: { readonly reason: string; readonly at: Date } | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** One POST of one message, as the endpoint's page lists it. */
export interface WebhookAttempt {
  readonly messageId: string;
  readonly eventType: string;
  readonly attempt: number;
  readonly delivered: boolean;
  readonly responseStatus: number | null;
  readonly durationMs: number;
  readonly detail: string | null;
  readonly at: Date;
}
