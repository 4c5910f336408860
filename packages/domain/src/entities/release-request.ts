import type { ReleaseRequestPlan } from './release-request-plan.js';

/**
 * A member's publish to a protected environment, waiting for an owner or admin to approve it
 * (the release happens then, released by the approver) or decline it with a reason. It names a
 * variant id, so a newer upload does not change or invalidate it.
 */
export const ReleaseRequestState = {
  Pending: 'pending',
  Approved: 'approved',
  Declined: 'declined',
} as const;
export type ReleaseRequestState = (typeof ReleaseRequestState)[keyof typeof ReleaseRequestState];

export interface ReleaseRequest {
  readonly id: string;
  readonly organizationId: string;
  readonly componentId: string;
  readonly componentName: string;
  readonly environmentId: string;
  readonly environmentName: string;
  readonly variantId: string;
  readonly variantSequence: number;
  readonly requestedBy: string;
  readonly requestedAt: Date;
  readonly state: ReleaseRequestState;
  /** Who approved or declined it, and when; null while pending. */
  readonly decidedBy: string | null;
  readonly decidedAt: Date | null;
  /** Set on a declined request only. */
  readonly declineReason: string | null;
  /** The release event an approval made (a release plan only). */
  readonly releaseEventId: string | null;
  /** What approving does: release `variantId`, publish an experience on it, or start a rollout of it. */
  readonly plan: ReleaseRequestPlan;
}

/** Longest decline reason kept, in characters (after trimming). */
export const MAX_DECLINE_REASON_LENGTH = 500;
