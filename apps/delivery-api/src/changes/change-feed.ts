/**
 * Notifications channels written by the database triggers (packages/db migrations
 * `delivery_change_notifications` and `private_previews`): the payload is the id
 * of the component or flow that changed. On `private_change` it is a component
 * whose organization keeps previews private (a preview upload), or such an
 * organization (its switch changed): a change that must not be announced.
 */
export const CHANGE_CHANNELS = ['component_changed', 'flow_changed', 'private_change'] as const;
export type ChangeChannel = (typeof CHANGE_CHANNELS)[number];

export interface ChangeEvents {
  /** A component (variant, release, tags) or a flow changed. Ids are UUIDs, unique across both. */
  changed(id: string): void;
  /**
   * Something the anonymous change streams must not hear of changed: a preview
   * upload of an organization with private previews, or an organization's switch.
   */
  changedPrivately(id: string): void;
  /** Notifications may have been lost (the listening connection dropped): assume everything changed. */
  missed(): void;
}

/** Where a delivery instance learns that what it cached has changed, from any writer in any process. */
export interface ChangeFeed {
  /** Settles once the feed first listens (never rejects; a feed that cannot connect keeps retrying). */
  readonly listening: Promise<void>;
  subscribe(events: ChangeEvents): () => void;
  close(): Promise<void>;
}

/** Fan-out to subscribers; the feeds below only decide when to call it. */
export class ChangeHub {
  private readonly subscribers = new Set<ChangeEvents>();

  subscribe(events: ChangeEvents): () => void {
    this.subscribers.add(events);
    return () => this.subscribers.delete(events);
  }

  changed(id: string): void {
    for (const events of this.subscribers) events.changed(id);
  }

  changedPrivately(id: string): void {
    for (const events of this.subscribers) events.changedPrivately(id);
  }

  /** A notification as it arrived on a channel. */
  notify(channel: string, id: string): void {
    if (channel === 'private_change') this.changedPrivately(id);
    else this.changed(id);
  }

  missed(): void {
    for (const events of this.subscribers) events.missed();
  }
}
