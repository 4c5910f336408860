import type { AuditNote } from '../entities/audit-event.js';
import type { LiveAssignment } from '../entities/assignment.js';
import type { ExperienceDefinition, ExperienceDraft, ExperienceRevision } from '../entities/experience.js';
import type { MovedUsers } from '../rules/experience-definition.js';

export interface Experiences {
  findDraft(componentId: string, environmentId: string): Promise<ExperienceDraft | null>;
  /** Replaces the draft (last write wins: a draft is one person's scratch space, not audited). */
  saveDraft(input: {
    componentId: string;
    environmentId: string;
    definition: ExperienceDefinition;
    updatedBy: string;
    now: Date;
  }): Promise<ExperienceDraft>;
  /**
   * Atomic: the next revision number of the component environment, the revision (immutable)
   * made live with a new assignment revision, an AuditKind.ExperiencePublished row (number,
   * salt kept or new, `moved`, `republishedFrom`, and `requestId`/`requestedBy` when approved)
   * and the experience.published webhook event. Refuses with CONFLICT when a rollout is live
   * in the environment (one of the two at a time), or when `expectedLive` is given and the live
   * revision's number (null: none) is another.
   */
  publish(input: {
    componentId: string;
    environmentId: string;
    definition: ExperienceDefinition;
    salt: string;
    republishedFrom: number | null;
    expectedLive?: number | null;
    moved: readonly MovedUsers[];
    publishedBy: string;
    now: Date;
    audit: AuditNote;
  }): Promise<ExperienceRevision>;
  /** The newest revision, or null. */
  findLive(componentId: string, environmentId: string): Promise<ExperienceRevision | null>;
  findRevision(componentId: string, environmentId: string, number: number): Promise<ExperienceRevision | null>;
  /** Newest first, at most `limit`. */
  listRevisions(componentId: string, environmentId: string, limit: number): Promise<ExperienceRevision[]>;
}

/** The delivery API's read: what is live in a component environment, in one query. */
export interface Assignments {
  /**
   * The live experience revision with segments, or the live rollout (weight > 0), as buckets
   * with arms named `v<sequence>` / RELEASE_ARM; null when neither.
   */
  findLive(componentId: string, environmentName: string): Promise<LiveAssignment | null>;
}
