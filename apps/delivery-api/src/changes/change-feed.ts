/**
 * Notifications channels written by the database triggers (packages/db migration
 * `delivery_change_notifications`): the payload is the id of the component or
 * flow that changed.
 */
export const CHANGE_CHANNELS = ['component_changed', 'flow_changed'] as const;

export interface ChangeEvents {
  /** A component (variant, release, tags) or a flow changed. Ids are UUIDs, unique across both. */
  changed(id: string): void;
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

  missed(): void {
    for (const events of this.subscribers) events.missed();
  }
}
