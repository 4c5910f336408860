import type { AuditNote } from '../entities/audit-event.js';
import type { Release, ReleaseEvent, WeeklyReleaseCount } from '../entities/release.js';

export interface Releases {
  /**
   * Atomic: makes `variantId` the current release of the component in the
   * environment and appends a history event that records the previous variant, and an
   * AuditKind.ReleasePublished row (environment, variantId, previousVariantId, rollback) in the
   * same transaction, with a static export job when the organization opted in (StaticExports).
   */
  publish(input: {
    eventId: string;
    componentId: string;
    environmentId: string;
    variantId: string;
    releasedBy: string;
    now: Date;
    /**
     * When true, checks `releasedBy`'s role as the release is written (rules/roles.ts
     * canPublishTo): FORBIDDEN when the role publishes nowhere (a viewer, or not a member),
     * ENVIRONMENT_PROTECTED when the environment is protected and the role may not publish
     * there. A check made earlier cannot race a change of the flag or of the role.
     */
    enforceProtection?: boolean;
    audit: AuditNote;
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
  /**
   * The component's release events (publishes and roll backs, every environment) counted per UTC
   * week: one entry for each of `weeks` weeks from `from` (a Monday 00:00 UTC), oldest first. A week
   * without an event counts 0, as does every week of an unknown component.
   */
  countPerWeek(componentId: string, range: { from: Date; weeks: number }): Promise<WeeklyReleaseCount[]>;
}
