import type { AuditNote } from '../entities/audit-event.js';
import type { ArmSessions, GuardSettings, GuardWindow, Rollout, RolloutStage } from '../entities/rollout.js';

/** A change to a live rollout; `by` is who decided (the guard acts as GUARD_ACTOR_ID). */
export type RolloutChange =
  | { readonly kind: 'advance'; readonly stageIndex: number; readonly by: 'person' | 'guard' }
  | { readonly kind: 'pause'; readonly reason: string | null }
  | { readonly kind: 'resume' }
  /** The kill switch: weight 0, everyone on the release. */
  | { readonly kind: 'stop'; readonly reason: string }
  /** The guard closed a window: recorded, then (roll_back) weight 0 or (pause) paused, with `reason`. */
  | { readonly kind: 'window'; readonly window: GuardWindow; readonly outcome: 'continue' | 'roll_back' | 'pause'; readonly reason: string | null }
  /** Releases the candidate (as Releases.publish, event `releaseEventId`, audited and sent as release.published too). */
  | { readonly kind: 'promote'; readonly releaseEventId: string };

export interface Rollouts {
  /**
   * Atomic: a running rollout at stage 0 with a new assignment revision, an AuditKind.RolloutStarted
   * row (with `requestId`/`requestedBy` when approved) and the rollout.started webhook event.
   * Refuses with CONFLICT when a rollout is live in the environment or an experience with segments
   * is (one of the two at a time), and when the environment has no release or its release is
   * no longer `baselineVariantId`, or is the candidate.
   */
  start(input: {
    id: string;
    componentId: string;
    environmentId: string;
    candidateVariantId: string;
    baselineVariantId: string;
    salt: string;
    stages: readonly RolloutStage[];
    guard: GuardSettings;
    startedBy: string;
    now: Date;
    audit: AuditNote;
  }): Promise<Rollout>;
  /** Null for an unknown or malformed id. */
  findById(id: string): Promise<Rollout | null>;
  /** The running or paused rollout of a component environment. */
  findLive(componentId: string, environmentId: string): Promise<Rollout | null>;
  /** The component's rollouts, newest first, at most `limit`. */
  listForComponent(componentId: string, limit: number): Promise<Rollout[]>;
  /** Every running or paused rollout, for the guard. */
  listLive(): Promise<Rollout[]>;
  /**
   * Atomic, a conditional update on `expectedRevision`: CONFLICT when the rollout changed
   * meanwhile (its revision is another) or has ended. Applies the change, bumps the revision
   * and the assignment revision, and writes the change's audit row and webhook event. A
   * person's change is checked against their role as it is written (as Releases.publish with
   * enforceProtection) unless `by` is the guard.
   */
  change(input: { rolloutId: string; expectedRevision: number; change: RolloutChange; now: Date; audit: AuditNote }): Promise<Rollout>;
  /** The guard's windows, oldest first. */
  windows(rolloutId: string): Promise<GuardWindow[]>;
}

/** Sessions per variant from usage analytics (the raw events, which keep the session id). */
export interface RolloutFigures {
  /**
   * Distinct sessions of `variantIds` in the component environment between `from` (inclusive)
   * and `to` (exclusive) that reported a load or render, and those of them that reported an error.
   */
  sessions(input: { componentId: string; environment: string; variantIds: readonly string[]; from: Date; to: Date }): Promise<Map<string, ArmSessions>>;
}

/** The actor of the guard's changes in the audit trail and in webhooks: no user. */
export const GUARD_ACTOR_ID = '00000000-0000-0000-0000-000000000000';
