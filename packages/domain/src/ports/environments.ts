import type { AuditNote } from '../entities/audit-event.js';
import type { Environment } from '../entities/release.js';

/** What every environment change carries: when, and its audit row's id and actor. */
export interface EnvironmentChange {
  readonly now: Date;
  readonly audit: AuditNote;
}

/*
 * Each write records its audit row (EnvironmentCreated, -Renamed, -Removed,
 * -ProtectionChanged) in its own transaction, and only when something changed.
 */
export interface Environments {
  /** Ordered by name. */
  listForOrganization(organizationId: string): Promise<Environment[]>;
  /** Exact (names are stored lower-case). */
  findByName(organizationId: string, name: string): Promise<Environment | null>;
  /** Throws DomainError NAME_TAKEN when the organization already has that name. */
  create(environment: {
    id: string;
    organizationId: string;
    name: string;
    protected: boolean;
    now: Date;
    audit: AuditNote;
  }): Promise<Environment>;
  /** Null when it does not exist. Throws DomainError NAME_TAKEN when the organization already has that name. */
  rename(id: string, name: string, change: EnvironmentChange): Promise<Environment | null>;
  /** Sets or clears the protected flag; null when the environment does not exist. */
  setProtected(id: string, isProtected: boolean, change: EnvironmentChange): Promise<Environment | null>;
  /**
   * Atomic: deletes the environment only when nothing was ever released to it
   * (no current release, no history event). `in-use` changes nothing.
   */
  remove(id: string, change: EnvironmentChange): Promise<'removed' | 'in-use' | 'missing'>;
}
