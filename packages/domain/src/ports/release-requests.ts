import type { AuditNote } from '../entities/audit-event.js';
import type { ReleaseEvent } from '../entities/release.js';
import type { ReleaseRequest } from '../entities/release-request.js';
import type { ReleaseRequestPlan } from '../entities/release-request-plan.js';
import type { ExperienceRevision } from '../entities/experience.js';
import type { Rollout } from '../entities/rollout.js';
import type { MovedUsers } from '../rules/experience-definition.js';

/** What an approval did, by the request's plan. */
export type ApprovedPlan =
  | { readonly kind: 'release'; readonly event: ReleaseEvent }
  | { readonly kind: 'experience'; readonly revision: ExperienceRevision }
  | { readonly kind: 'rollout'; readonly rollout: Rollout };

/** What deciding a request found: done by this call, decided before (by whom: `request`), or no such request. */
export type ReleaseRequestDecision<Done> =
  | Done
  | { readonly outcome: 'already-decided'; readonly request: ReleaseRequest }
  | { readonly outcome: 'missing' };

export interface ReleaseRequests {
  /**
   * Atomic: a pending request for (component, environment), with an AuditKind.ReleaseRequested
   * row, unless one is pending there already: then that one, unchanged (`created: false`).
   * The caller has checked that the ids belong together.
   */
  create(input: {
    id: string;
    componentId: string;
    environmentId: string;
    variantId: string;
    /** Default: a release of `variantId`. */
    plan?: ReleaseRequestPlan;
    requestedBy: string;
    now: Date;
    audit: AuditNote;
  }): Promise<{ request: ReleaseRequest; created: boolean }>;
  /** Null for an unknown or malformed id. */
  findById(id: string): Promise<ReleaseRequest | null>;
  /** The component's pending requests, oldest first. */
  listPending(componentId: string): Promise<ReleaseRequest[]>;
  /** The organization's requests: the pending ones oldest first, then the decided ones newest decision first; at most `limit`. */
  listForOrganization(
    organizationId: string,
    options: { limit: number },
  ): Promise<ReleaseRequest[]>;
  /**
   * Atomic, in one transaction: claims the pending request (a conditional UPDATE), releases its
   * variant (as Releases.publish, released by `approvedBy`, event `eventId`) and records
   * ReleasePublished (with requestId and requestedBy) and ReleaseApproved. A request decided
   * meanwhile changes nothing. Refuses FORBIDDEN unless, as it is written, `approvedBy` may publish
   * to protected environments in the request's organization (rules/roles.ts).
   */
  approve(input: {
    requestId: string;
    approvedBy: string;
    eventId: string;
    now: Date;
    /** The ReleaseApproved row. */
    audit: AuditNote;
    /** The id of the ReleasePublished row (same actor); for another plan, of its ExperiencePublished or RolloutStarted row. */
    publishAuditId: string;
    /** A new salt, for an experience plan of phase `new` (or with nothing live) and for a rollout plan. */
    salt: string;
    /** The id of the rollout a rollout plan starts. */
    rolloutId: string;
    /** An experience plan with the salt kept: the users it moves (rules/experience-definition.ts movedUsers). */
    moved: readonly MovedUsers[];
  }): Promise<
    ReleaseRequestDecision<{
      readonly outcome: 'approved';
      readonly request: ReleaseRequest;
      readonly applied: ApprovedPlan;
    }>
  >;
  /** Atomic: declines the pending request with `reason` and records ReleaseDeclined; the same role rule as approve. */
  decline(input: {
    requestId: string;
    declinedBy: string;
    reason: string;
    now: Date;
    audit: AuditNote;
  }): Promise<
    ReleaseRequestDecision<{ readonly outcome: 'declined'; readonly request: ReleaseRequest }>
  >;
}
