import type { Release, ReleaseEvent } from '../entities/release.js';

export interface Releases {
  /**
   * Atomic: makes `variantId` the current release of the component in the
   * environment and appends a history event that records the previous variant.
   */
  publish(input: {
    eventId: string;
    componentId: string;
    environmentId: string;
    variantId: string;
    releasedBy: string;
    now: Date;
    /**
     * When true, refuses with ENVIRONMENT_PROTECTED if, as the release is written, the
     * environment is protected and `releasedBy` is not an owner or admin of its
     * organization: a check made earlier cannot race a change of the flag.
     */
    enforceProtection?: boolean;
  }): Promise<ReleaseEvent>;
  /** The component's current releases, ordered by environment name. */
  listCurrent(componentId: string): Promise<Release[]>;
  findCurrent(componentId: string, environmentId: string): Promise<Release | null>;
  /**
   * Newest first (latest `releasedAt`, then the later insertion), at most `limit` events.
   * Keyset pages: with `before` (an event id), the events that follow it in that order
   * (older ones); with `after`, the `limit` events closest before it in that order (the
   * oldest of the newer ones), still newest first. At most one of the two. A cursor that
   * is not an event of this component throws DomainError NOT_FOUND.
   */
  history(componentId: string, options: { limit: number; before?: string; after?: string }): Promise<ReleaseEvent[]>;
}
