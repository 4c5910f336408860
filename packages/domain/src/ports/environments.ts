import type { Environment } from '../entities/release.js';

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
  }): Promise<Environment>;
  /** Null when it does not exist. Throws DomainError NAME_TAKEN when the organization already has that name. */
  rename(id: string, name: string): Promise<Environment | null>;
  /** Sets or clears the protected flag; null when the environment does not exist. */
  setProtected(id: string, isProtected: boolean): Promise<Environment | null>;
  /**
   * Atomic: deletes the environment only when nothing was ever released to it
   * (no current release, no history event). `in-use` changes nothing.
   */
  remove(id: string): Promise<'removed' | 'in-use' | 'missing'>;
}
