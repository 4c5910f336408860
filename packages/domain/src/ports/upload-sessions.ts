import type { AuditNote } from '../entities/audit-event.js';
import type { UploadSession } from '../entities/upload-session.js';

export interface ConfirmUploadInput {
  readonly sessionId: string;
  readonly now: Date;
  /** Set when the session creates a component: it is created in the same transaction. */
  readonly newComponent: {
    id: string;
    organizationId: string;
    name: string;
    description: string;
  } | null;
  /** The component that receives the variant (the new one's id when `newComponent` is set). */
  readonly componentId: string;
  /** The variant; its sequence number is assigned by the repository. */
  readonly variant: {
    id: string;
    objectKey: string;
    size: number;
    sha256: string;
    integrity: string;
    createdBy: string;
  };
  /** The upload's audit row (UploadConfirmed), written only by the confirm that records the variant. */
  readonly audit: AuditNote;
}

export interface UploadSessions {
  create(session: UploadSession): Promise<void>;
  findById(id: string): Promise<UploadSession | null>;
  /**
   * Atomic, and the only way a session becomes confirmed. In one transaction:
   * claims the session if it is still pending, creates the component when new,
   * adds the variant with the component's next sequence number (bumping
   * `variantsCount` and `updatedAt`), stores the result on the session, and
   * writes the UploadConfirmed audit row.
   * If the session is no longer pending, nothing is written and
   * `recorded` is false; `session` is then the stored session as it is.
   * Throws DomainError NAME_TAKEN (nothing written) when a new component's name
   * is already used in its organization.
   */
  confirm(input: ConfirmUploadInput): Promise<{ recorded: boolean; session: UploadSession }>;
  /**
   * Sessions in any state whose expiry is before `now` and whose staging object has
   * not been removed yet (`stagingRemovedAt` null), oldest expiry first.
   */
  listToSweep(now: Date, limit: number): Promise<UploadSession[]>;
  /** Pending -> expired; false when the session was not pending. */
  markExpired(id: string): Promise<boolean>;
  /** Sets `stagingRemovedAt` if still null; false when it was set already (another sweeper won). */
  markStagingRemoved(id: string, at: Date): Promise<boolean>;
}
